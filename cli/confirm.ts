// A yes/no question to the operator at a terminal, for a command that records what it read from
// elsewhere only once a person has looked at it (`ces draw results --fetch`). The question goes to
// stderr: stdout carries the command's one document.
import { createInterface } from 'node:readline';
import type { CliInput, CliOutput } from './io.ts';

/** Asks `question` and reads one line: true for y or yes (any case); anything else, or the end of input, is no. */
export function askYesNo(input: CliInput, output: CliOutput, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    // terminal: false: the line is read as typed, without taking the terminal over (raw mode, echo).
    const lines = createInterface({ input, terminal: false });
    let answered = false;
    const answer = (text: string): void => {
      if (answered) return;
      answered = true;
      lines.close();
      resolve(/^\s*y(es)?\s*$/i.test(text));
    };
    lines.once('line', answer);
    lines.once('close', () => answer(''));
    output.write(question);
  });
}
