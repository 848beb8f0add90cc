import { createHash } from "node:crypto";
import { Kysely, PostgresDialect, type RawBuilder, sql } from "kysely";
import pg from "pg";
import type { Database } from "~db/schema";
import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { logger } from "~/modules/log/logger.server";
import { watchPool } from "~/modules/metrics/count.server";

export type DB = Kysely<Database>;

const INT8_OID = 20;
/** How long a new connection may take before the request gets the 503 page (db/unavailable.ts). */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A connection attempt to an unreachable server (lost network, host down) fails after
 * CONNECT_TIMEOUT_MS instead of hanging the request. Set on the client, not on the pool, whose
 * option of the same name would also fail requests merely waiting for a free connection under load.
 */
class TimedConnectClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(typeof config === "string" ? { connectionString: config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS } : { ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * The statements a connection has prepared, at most this many: beyond it a statement goes unnamed
 * (parsed and planned each time, as without preparing), so neither side's memory grows with the
 * number of distinct statements (an `in` list of every length is one each).
 */
const PREPARED_PER_CONNECTION = 256;
/** Statement names by text, shared by the process's connections; emptied when it grows past this. */
const NAMES_KEPT = 4096;
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= NAMES_KEPT) statementNames.clear();
    name = `a${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A connection that prepares each parameterised statement once, under a name made from its text,
 * and from then on only binds and executes it (ADR 086): PostgreSQL neither parses it again nor, once
 * it has seen that a generic plan costs no more, plans it for every request. Kysely sends every
 * statement with its parameters through `query(text, values)`; a statement without parameters goes
 * by the simple protocol as before (it may hold several commands, as migrations do).
 */
class PreparingClient extends TimedConnectClient {
  readonly #prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [config, values] = args;
    if (typeof config === "string" && Array.isArray(values) && values.length > 0 && args.length === 2) {
      const name = statementName(config);
      if (this.#prepared.has(name) || this.#prepared.size < PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        return (super.query as (...rest: unknown[]) => never)({ name, text: config, values });
      }
    }
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}

/** Opens a database: PostgreSQL when a URL is given, otherwise embedded PGlite in a folder. */
export async function openDatabase(target: AppConfig["database"], options: { poolSize?: number } = {}): Promise<DB> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolSize ?? target.poolSize ?? 10,
      Client: target.preparedStatements === false ? TimedConnectClient : PreparingClient,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    pool.on("error", (error) => logger.error("database connection lost:", error.message));
    // Nor one that drops while checked out (PostgreSQL restarting, the network gone mid-query): its
    // query fails with the error, but the client also emits it, and an 'error' event nobody listens
    // to ends the process. The pool discards the broken client when it is released.
    pool.on("connect", (client) => {
      client.on("error", (error) => logger.error("database connection lost while in use:", error.message));
    });
    watchPool(pool);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const [{ PGlite }, { PGliteDialect }, { pg_trgm }, { btree_gin }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("kysely-pglite-dialect"),
    // Trigram indexes serve the searches (ADR 042), one keyed by a clinic's e-mail (btree_gin, ADR 098); the migrations create the extensions.
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
  ]);
  const pglite = await PGlite.create(target.dir, { parsers: { [INT8_OID]: (value: string) => Number(value) }, extensions: { pg_trgm, btree_gin } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  embedded.set(db, pglite);
  return db;
}

/** The embedded database behind a Kysely instance, for what only it can do (a backup of its data directory). */
const embedded = new WeakMap<DB, import("@electric-sql/pglite").PGlite>();
export function embeddedDatabaseOf(db: DB) {
  return embedded.get(db);
}

declare global {
  // One database client per process, kept across dev rebuilds.
  var __alignerDb: Promise<DB> | undefined;
}

export function getDb(): Promise<DB> {
  globalThis.__alignerDb ??= openDatabase(getConfig().database);
  return globalThis.__alignerDb;
}

/**
 * A page's `limit` or `offset` as a literal the planner reads, not a parameter (ADR 086): PostgreSQL
 * prices a generic plan's parameterised limit at a tenth of the table, so a prepared page query
 * would be planned anew for every request. A page size is a constant; offsets are few (cursors
 * carry the pager's pages), and each distinct one is one more prepared statement within the bound.
 */
export function plannedCount(value: number): RawBuilder<number> {
  return sql.lit(Math.max(0, Math.trunc(value)));
}

/** Lets tests and scripts use a database they opened themselves. */
export function setDb(db: DB) {
  globalThis.__alignerDb = Promise.resolve(db);
}

/**
 * `work` in one transaction: the caller's when `db` is already one (so a change made of several
 * steps, such as a payment applied to its order, commits or rolls back whole), a new one otherwise.
 */
export function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
