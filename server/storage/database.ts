// What the kiosk's memory needs of a database, whichever one holds it: PGlite in a folder (one
// kiosk) or a PostgreSQL server (a fleet). Both run the same SQL text; this is the whole surface
// the rest of server/storage/ uses, so neither back end's API leaks past its own file.

/** Statements run one after another on one connection (a transaction's, or any free one). */
export interface Sql {
  /** runs one statement with `$1`-style parameters; resolves with its rows */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** runs a script of several statements without parameters (a migration) */
  exec(text: string): Promise<void>;
}

/** An open database: statements, transactions, and how to say where it is. */
export interface Database extends Sql {
  /**
   * Runs `work` in one transaction (BEGIN ... COMMIT), rolled back when it throws. Rows it locks
   * (`SELECT ... FOR UPDATE`) stay locked until it ends, also against other servers.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** where the data lives, for the start banner: a folder, or a server's host and database (never a password) */
  readonly where: string;
  close(): Promise<void>;
}

/**
 * The memory could not be opened (or written); the message is one line that names the setting to
 * change, for the operator who starts the server.
 */
export class MemoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryError';
  }
}

/** The message of anything thrown, on one line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim() || 'unknown error';
}
