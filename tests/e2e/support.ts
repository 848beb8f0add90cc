import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const embedded = process.env.E2E_TARGET === "embedded";
/**
 * This run's name, which names its folders under tests/.tmp: "e2e" or "embedded", or what E2E_RUN
 * says when `npm test` runs a target's projects as separate runs at once (ADR 059).
 */
export const run = process.env.E2E_RUN ?? (embedded ? "embedded" : "e2e");
/** The server's folders (playwright.config.ts): its outbox, storage and secrets. */
export const dataDir = path.resolve(`tests/.tmp/${run}-data`);
export const outbox = path.join(dataDir, "outbox");

/** Files the journeys choose: one folder per run, since `npm test` runs several at the same time. */
export const FIXTURES = path.resolve(`tests/.tmp/${run}-stl`);

/**
 * A file under FIXTURES, written once and whole: `write` fills a scratch path that is then renamed,
 * so a journey never picks up a file another process is still writing. Its modification time stays
 * put afterwards, so the browser's fingerprint of it is stable too.
 */
export function fixtureFile(name: string, write: (file: string) => void): string {
  const file = path.join(FIXTURES, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(FIXTURES, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    write(partial);
    fs.renameSync(partial, file);
  }
  return file;
}

/** The back-office password of the server under test: fixed for PostgreSQL runs, generated for `npm start`. */
export function backofficePassword(): string {
  if (!embedded) return "e2e-office-password";
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  return secrets.BACKOFFICE_PASSWORD;
}

/** The database of the PostgreSQL target: `aligner_e2e` (or E2E_DATABASE) on the test server. */
export function e2eDatabaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${process.env.E2E_DATABASE ?? "aligner_e2e"}`;
  return url.toString();
}

/** One statement on the PostgreSQL target's database (what a test arranges outside the pages). */
export async function e2eQuery<Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let refusals = 0;

/**
 * Runs `body` while the PostgreSQL target refuses `event` on the rows of `table` that `when` matches
 * (ADR 026). There the app is the database's owner, so the integration tests' revoked privilege
 * cannot be used: a trigger raises the same "insufficient privilege" error instead. The embedded
 * target's database lives inside the server process and has no such door.
 */
export async function refusing<T>(table: string, event: "insert" | "update" | "delete", when: string, body: () => Promise<T>): Promise<T> {
  const name = `e2e_refuse_${process.pid}_${++refusals}`;
  await e2eQuery(`create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'refused by the test' using errcode = 'insufficient_privilege'; end $$`);
  await e2eQuery(`create trigger ${name} before ${event} on ${table} for each row when (${when}) execute function ${name}()`);
  try {
    return await body();
  } finally {
    await e2eQuery(`drop trigger ${name} on ${table}`);
    await e2eQuery(`drop function ${name}()`);
  }
}

/** A quoted SQL string literal, for `refusing`'s conditions. */
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
