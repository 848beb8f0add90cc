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
 *
 * Then the database's own time a request (`log_min_duration_statement = 0`): the mean over 20 warm
 * requests of each statement's parse, bind (where an unnamed statement is planned) and execute, the
 * most costly first — what each page costs the database beside what it costs the app.
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
let app = await startBenchApp(database.url, [], 1);
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
  const logged = async (url: string, cookie: string, requests: number) => {
    const from = fs.statSync(LOG).size;
    let status = 0;
    for (let i = 0; i < requests; i++) status = (await getRaw(`${app.url}${url}`, { cookie })).status;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { status, text: fs.readFileSync(LOG, "utf8").slice(from) };
  };
  for (const [label, url, cookie] of targets) {
    await getRaw(`${app.url}${url}`, { cookie }); // warm: caches, pools
    const { status, text } = await logged(url, cookie, 1);
    const lines = text.split("\n").filter((line) => line.includes(`@${name} LOG:  statement:`) || line.includes(`@${name} LOG:  execute`));
    console.log(`${label}: HTTP ${status}, ${lines.length} statements`);
    if (verbose) for (const line of lines) console.log(`   ${line.replace(/^.*LOG: {2}/, "").slice(0, 220)}`);
  }

  // The database's time: every phase of every statement with its duration.
  await sql`alter database ${sql.id(name)} set log_min_duration_statement = 0`.execute(database.db);
  await sql`alter database ${sql.id(name)} set log_statement = 'none'`.execute(database.db);
  await app.stop();
  app = await startBenchApp(database.url, [], 1); // its connections read the new settings
  const REQUESTS = 20;
  for (const [label, url, cookie] of targets) {
    for (let i = 0; i < 10; i++) await getRaw(`${app.url}${url}`, { cookie }); // warm; the session and the gate outlive the restart
    const { text } = await logged(url, cookie, REQUESTS);
    const phases = new Map<string, number>();
    let total = 0;
    for (const match of text.matchAll(/duration: ([\d.]+) ms {2}(parse|bind|execute|statement)[^:]*: (.{0,70})/g)) {
      const ms = Number(match[1]);
      total += ms;
      const key = `${match[2]} ${match[3]!.replace(/\$\d+/g, "$")}`;
      phases.set(key, (phases.get(key) ?? 0) + ms);
    }
    console.log(`${label}: ${(total / REQUESTS).toFixed(2)} ms of database time a request (mean of ${REQUESTS})`);
    for (const [key, ms] of [...phases].sort((a, b) => b[1] - a[1]).slice(0, verbose ? 20 : 5)) console.log(`   ${(ms / REQUESTS).toFixed(3)} ms  ${key}`);
  }
} finally {
  await app.stop();
  await database.drop();
}
