import { type AppServer, startAppServer } from "./app-server";
import { createTestDatabase, type TestDatabase } from "./database";

/**
 * The app-with-database fixture of every suite that starts the server: a fresh database cloned from
 * the migrated template, the real app (`startAppServer`, the code behind `npm start`) on it with the
 * suites' secrets, and one `close()` that stops the one and drops the other.
 */

/**
 * The secrets every suite's server runs with. The test process gets them too (`process.env`), so
 * what it signs or checks in-process (session cookies, gate passwords) matches the server. Each is
 * a string found nowhere else, so a test may look for it in logs and pages.
 */
export const SECRETS = {
  SESSION_SECRET: "suite-session-secret-0123456789abcdef",
  BACKOFFICE_PASSWORD: "suite-office-password",
  PACKER_PASSWORD: "suite-packer-password",
  CRON_SECRET: "suite-cron-secret",
};

export interface TestApp extends AppServer {
  /** The app's database, open in the test process too. */
  database: TestDatabase;
  /** Stops the server, then drops its database (unless the suite passed its own). */
  close(): Promise<void>;
}

export interface StartAppOptions {
  /** Environment of the server beside the database and the secrets (overrides them). */
  env?: Record<string, string>;
  /** A database the suite made (and drops) itself, e.g. to start a second server on it. */
  database?: TestDatabase;
  /** Connections of the test process's pool on a new database. */
  poolSize?: number;
  timeoutMs?: number;
  nodeArgs?: string[];
}

export async function startApp(options: StartAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.poolSize ?? 4));
  const owned = !options.database;
  Object.assign(process.env, SECRETS);
  let server: AppServer;
  try {
    server = await startAppServer({ DATABASE_URL: database.url, ...SECRETS, ...options.env }, { timeoutMs: options.timeoutMs, nodeArgs: options.nodeArgs });
  } catch (error) {
    if (owned) await database.drop();
    throw error;
  }
  return {
    ...server,
    database,
    async close() {
      await server.stop();
      if (owned) await database.drop();
    },
  };
}
