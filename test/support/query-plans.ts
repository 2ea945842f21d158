// What the dashboard's plan tests share: the statements a piece of code prepares, and the query
// plan SQLite picks for each read among them.
import type { Database } from 'better-sqlite3';

/** Every SQL text `run` prepares on `db` (prepare is wrapped for the call, then restored). */
export function statementsPrepared(db: Database, run: () => void): Set<string> {
  const statements = new Set<string>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    statements.add(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    run();
  } finally {
    db.prepare = prepare;
  }
  return statements;
}

/** The reads among `statements`: writes, transactions and pragmas left out. */
export function reads(statements: Iterable<string>): string[] {
  return [...statements].filter((sql) => !/^\s*(INSERT|UPDATE|DELETE|BEGIN|COMMIT|SAVEPOINT|RELEASE|PRAGMA)/i.test(sql));
}

/**
 * EXPLAIN QUERY PLAN of `sql`, its steps' details. Parameters become literals (EXPLAIN needs
 * values): LIMIT 50, then `literals` for what needs a number, then text for the rest.
 */
export function queryPlan(db: Database, sql: string, literals: (sql: string) => string = (s) => s): string[] {
  const literal = literals(sql.replace(/LIMIT (@\w+|\?)/g, 'LIMIT 50')).replace(/@\w+|\?/g, "'x'");
  return (db.prepare(`EXPLAIN QUERY PLAN ${literal}`).all() as Array<{ detail: string }>).map((r) => r.detail);
}

/**
 * The SQL of every statement `run` executes, once per execution, on any connection: prepare()
 * caches statements, so what is prepared does not tell what runs. The methods that execute a
 * statement are wrapped for the call, then restored.
 */
export async function statementsRun(db: Database, run: () => unknown): Promise<string[]> {
  const executed: string[] = [];
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<
    string,
    (this: { source: string }, ...args: unknown[]) => unknown
  >;
  const methods = ['run', 'get', 'all', 'iterate'];
  const originals = methods.map((name) => statement[name]!);
  methods.forEach((name, i) => {
    statement[name] = function (...args) {
      executed.push(this.source);
      return originals[i]!.apply(this, args);
    };
  });
  try {
    await run();
  } finally {
    methods.forEach((name, i) => (statement[name] = originals[i]!));
  }
  return executed;
}
