// Who runs this command, for the audit log: `cli:<OS user>`, read here, once, at the CLI's edge
// (domain code never reads the OS). An account with no name (a container's bare uid) is `uid-N`.
import { userInfo } from 'node:os';
import { cliActor, type Actor } from '../src/audit/actor.ts';

let operator: Actor | undefined;

export function cliOperator(): Actor {
  if (operator === undefined) {
    let user: string;
    try {
      user = userInfo().username;
    } catch {
      user = `uid-${process.getuid?.() ?? 'unknown'}`;
    }
    operator = cliActor(user);
  }
  return operator;
}
