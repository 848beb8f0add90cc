/**
 * Statements each personal page sends to PostgreSQL for one request, and their text: the round
 * trips a page pays for beside its render (ADR 030 counted the session's alone).
 *
 *   npx remix build && node --import tsx bench/statements.mts
 *
 * The app is the real server on the working-day fixture (bench/lib/app-fixture.ts), one worker; the
 * bench database logs every statement (`log_statement = all`, set for that database only) and the
 * lines of each request are read from the server's log (PG_LOG, default Debian's
 * /var/log/postgresql/postgresql-15-main.log) from where it ended before that request.
 */
import fs from "node:fs";
import { sql } from "kysely";
import { CLIENT_EMAIL, clientSessionCookie, gateCookie, seedWorkingDay, startBenchApp } from "./lib/app-fixture";
import { createBenchDatabase } from "./lib/database";
import { getRaw } from "./lib/page-weight";

const LOG = process.env.PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";
const database = await createBenchDatabase("statements");
await seedWorkingDay(database.db);
const name = new URL(database.url).pathname.slice(1);
await sql`alter database ${sql.id(name)} set log_statement = 'all'`.execute(database.db);
const app = await startBenchApp(database.url, [], 1);
try {
  const client = await clientSessionCookie(database.db, app);
  const office = await gateCookie(app, "backoffice");
  const order = await database.db.selectFrom("orders").select("id").where("email", "=", CLIENT_EMAIL).where("status", "<>", "draft").executeTakeFirstOrThrow();
  const targets: Array<[string, string, string]> = [
    ["/cabinet", "/cabinet", client],
    ["/cabinet/orders/:id", `/cabinet/orders/${order.id}`, client],
    ["/backoffice (cards)", "/backoffice?view=cards", office],
    ["/backoffice (table)", "/backoffice?view=table", office],
  ];
  const verbose = process.argv.includes("--verbose");
  for (const [label, url, cookie] of targets) {
    await getRaw(`${app.url}${url}`, { cookie }); // warm: caches, pools
    const from = fs.statSync(LOG).size;
    const response = await getRaw(`${app.url}${url}`, { cookie });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = fs.readFileSync(LOG, "utf8").slice(from);
    const lines = text.split("\n").filter((line) => line.includes(`@${name} LOG:  statement:`) || line.includes(`@${name} LOG:  execute`));
    console.log(`${label}: HTTP ${response.status}, ${lines.length} statements`);
    if (verbose) for (const line of lines) console.log(`   ${line.replace(/^.*LOG: {2}/, "").slice(0, 220)}`);
  }
} finally {
  await app.stop();
  await database.drop();
}
