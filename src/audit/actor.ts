// Who made a change, as the audit log names it (docs/operations.md#audit-log-ces-audit-list): an
// operator at the CLI (`cli:<OS user>`, read once at the CLI's edge), an API key (`api_key:<key
// id>`, its mode in the record's details) or a dashboard session (`dashboard:<name>`, for the
// dashboard to come). Domain code receives an Actor and never reads the OS or the environment
// itself.

export type Actor =
  { kind: 'cli'; user: string } | { kind: 'api_key'; keyId: string; mode: 'live' | 'test' } | { kind: 'dashboard'; name: string };

export const cliActor = (user: string): Actor => ({ kind: 'cli', user });

export const apiKeyActor = (caller: { keyId: string; mode: 'live' | 'test' }): Actor => ({
  kind: 'api_key',
  keyId: caller.keyId,
  mode: caller.mode,
});

/** The `actor` column: `cli:alice`, `api_key:0196…`, `dashboard:maria`. */
export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case 'cli':
      return `cli:${actor.user}`;
    case 'api_key':
      return `api_key:${actor.keyId}`;
    case 'dashboard':
      return `dashboard:${actor.name}`;
  }
}
