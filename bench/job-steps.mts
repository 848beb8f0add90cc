/**
 * Where a run of the scheduled job spends its time (ADR 092), in-process on a copy of the data set
 * bench/scale.mts keeps (`SCALE_FRACTION=0.1 node --import tsx bench/scale.mts --job-only` makes the
 * tenth): the queue part, then every housekeeping step as `runHousekeeping`'s onStep hears it, and the
 * statements each run sent, five runs with the due entries, five with nothing due, as scale.mts does.
 *
 *   node --import tsx bench/job-steps.mts            JOB_BASE (aligner_scale_v2_f0_1), JOB_FOLDERS (5000),
 *                                                    JOB_RUNS (5), JOB_TOP (statements shown a run, 6),
 *                                                    JOB_GROUPS=1 (statements summed by text),
 *                                                    JOB_EXPLAIN=<ms> (EXPLAIN ANALYZE of each slower one)
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { sql } from "kysely";

const BASE = process.env.JOB_BASE ?? "aligner_scale_v2_f0_1";
const RUN = `${BASE}_steps`;
const server = "postgres://postgres@127.0.0.1:5432/postgres";
const url = `postgres://postgres@127.0.0.1:5432/${RUN}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`drop database if exists ${RUN} with (force)`);
await admin.query(`create database ${RUN} template ${BASE} strategy file_copy`);
await admin.end();
const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "job-steps-"));
Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: url, APP_ENV: "development", NODE_ENV: "production", CRON_SECRET: "x".repeat(40), SESSION_SECRET: "s".repeat(40), LOG_LEVEL: "warn" });

// every statement timed
const statements: Array<{ ms: number; text: string; params: unknown[] }> = [];
type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
const query = pg.Client.prototype.query as unknown as Query;
(pg.Client.prototype as unknown as { query: Query }).query = function timedQuery(config, values, callback) {
  const started = performance.now();
  const result = query.call(this, config, values, callback);
  const text = typeof config === "string" ? config : String((config as { text?: string } | undefined)?.text ?? "");
  const params = Array.isArray(values) ? values : ((config as { values?: unknown[] } | undefined)?.values ?? []);
  if (result instanceof Promise) result.then(() => statements.push({ ms: performance.now() - started, text, params }), () => {});
  return result;
};

const { openDatabase } = await import("../app/modules/db/db.server");
const { getStorage } = await import("../app/modules/storage/storage.server");
const { getFileServer } = await import("../app/modules/ftp/file-server.server");
const { getConfig } = await import("../app/modules/config/config.server");
const { processQueue } = await import("../app/modules/ftp/transfer.server");
const { runHousekeeping } = await import("../app/modules/jobs/scheduled.server");
const db = await openDatabase({ kind: "postgres", url }, { poolSize: 2 });

const folders = Number(process.env.JOB_FOLDERS ?? 5000);
const root = path.join(dataDir, "storage", "orders");
const ids = await db.selectFrom("orders").select("id").orderBy("id").limit(folders).execute();
for (let at = 0; at < ids.length; at += 500)
  await Promise.all(ids.slice(at, at + 500).map(async ({ id }) => {
    const dir = path.join(root, `order_${id}`, "Пациент", "matrix");
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, "upper.stl"), "solid upper");
  }));
console.log(`laid ${ids.length} folders; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

const storage = getStorage();
const fileServer = getFileServer();
const config = getConfig();
const runs = Number(process.env.JOB_RUNS ?? 5);
const top = Number(process.env.JOB_TOP ?? 6);
async function run(label: string) {
  statements.length = 0;
  const begun = performance.now();
  const steps: string[] = [];
  const q = await processQueue({ db, storage, fileServer, log: () => {} }, config.queue, { budgetMs: 20_000, graceMs: 20_000 });
  steps.push(`queue ${(performance.now() - begun).toFixed(0)} (claimed ${q.claimed}, remaining ${q.remaining})`);
  const s = await runHousekeeping(db, storage, { onStep: (step, ms) => { if (ms >= 3) steps.push(`${step} ${ms}`); } });
  const total = performance.now() - begun;
  console.log(`${label}: ${total.toFixed(0)} ms — ${steps.join("; ")} | drafts ${s.abandonedDraftsDeleted}, models ${s.modelFoldersRemoved}, anonymised ${s.ordersAnonymised}, walked ${s.storageObjectsWalked}, statements ${statements.length} (${statements.reduce((a, b) => a + b.ms, 0).toFixed(0)} ms)`);
  const groups = new Map<string, { n: number; ms: number }>();
  for (const st of statements) { const k = st.text.replace(/\s+/g, " ").slice(0, 90); const g = groups.get(k) ?? { n: 0, ms: 0 }; g.n++; g.ms += st.ms; groups.set(k, g); }
  if (process.env.JOB_GROUPS) for (const [k, g] of [...groups].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8)) console.log(`   ${g.n} × ${(g.ms / g.n).toFixed(1)} = ${g.ms.toFixed(0)} ms  ${k}`);
  for (const st of [...statements].sort((a, b) => b.ms - a.ms).slice(0, top)) console.log(`   ${st.ms.toFixed(1)} ms  ${st.text.replace(/\s+/g, " ").slice(0, 220)}`);
  return { total, statements: [...statements] };
}
const all: Array<{ text: string; params: unknown[]; ms: number }> = [];
for (let i = 0; i < runs; i++) all.push(...(await run(`due ${i + 1}`)).statements);
await sql`update ftp_uploads_queue set status = 'completed', completed_at = now(), error_message = null, locked_until = null where due and status in ('pending', 'uploading', 'failed')`.execute(db);
for (let i = 0; i < runs; i++) all.push(...(await run(`idle ${i + 1}`)).statements);

if (process.env.JOB_EXPLAIN) {
  const seen = new Map<string, { ms: number; params: unknown[] }>();
  for (const st of all) if (st.ms >= Number(process.env.JOB_EXPLAIN)) { const k = seen.get(st.text); if (!k || k.ms < st.ms) seen.set(st.text, st); }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const [text, { ms, params }] of [...seen].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`\n-- ${ms.toFixed(1)} ms: ${text.replace(/\s+/g, " ")}\n-- ${JSON.stringify(params).slice(0, 300)}`);
    await client.query("begin");
    try { console.log((await client.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${text}`, params)).rows.map((row) => row["QUERY PLAN"]).join("\n")); }
    catch (e) { console.log(`(no plan: ${e})`); }
    finally { await client.query("rollback"); }
  }
  await client.end();
}
await db.destroy();
await fsp.rm(dataDir, { recursive: true, force: true });
const a2 = new pg.Client({ connectionString: server });
await a2.connect();
await a2.query(`drop database if exists ${RUN} with (force)`);
await a2.end();
console.log(`load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
