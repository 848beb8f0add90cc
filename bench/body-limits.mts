/**
 * Abusive bodies (issue 30, ADR 039): 2 GiB chunked bodies, several at once, at the routes a
 * hostile visitor can reach without signing in — a form (`/cookies`), a webhook
 * (`/api/webhooks/sandbox`), a resumable upload's chunk and the wizard's plain-form upload —
 * against the real server on PostgreSQL with the product's default limits. Prints, per scenario,
 * the server process's resident memory growth (peak VmRSS over the baseline, sampled every 50 ms),
 * the time until every sender had its answer, how much the senders got to send, and the slowest
 * answer to a visitor asking for pages meanwhile.
 *
 *   node --import tsx bench/body-limits.mts [--gib 2]
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { generatedBody, GiB, MiB, multipartBody, residentBytes, sampleResident, streamPost } from "../tests/support/abusive-bodies";
import { browserFetch, type AppServer } from "../tests/support/app-server";
import { createBenchDatabase } from "./lib/database";
import { startBenchApp } from "./lib/app-fixture";
import { type Figure, printResult } from "./lib/result";

const { values } = parseArgs({ options: { gib: { type: "string", default: "2" } } });
const bodyBytes = Number(values.gib) * GiB;
const TARGET_MIB = 64;

type Browser = ReturnType<typeof browserFetch>;

async function toMatrixStep(app: AppServer, db: BenchDb): Promise<{ browser: Browser; orderId: string; patientId: string }> {
  const browser = browserFetch(app);
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-01" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Смирнова Е." } });
  await browser.request("/order", { form: { intent: "next" } });
  const order = await db.selectFrom("orders").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const patient = await db.selectFrom("orders_patients").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
  return { browser, orderId: order.id, patientId: patient.id };
}

type BenchDb = Awaited<ReturnType<typeof createBenchDatabase>>["db"];

const database = await createBenchDatabase("bodies");
const app = await startBenchApp(database.url, [], 1);
const figures: Figure[] = [];
try {
  const headersOf = (browser: Browser, extra: Record<string, string> = {}) => ({ Cookie: browser.jar.header(), Origin: app.url, ...extra });

  async function tusPath(browser: Browser, orderId: string, patientId: string): Promise<string> {
    const b64 = (value: string) => Buffer.from(value).toString("base64");
    const metadata = [`filename ${b64("scan.stl")}`, `orderId ${b64(orderId)}`, `patientId ${b64(patientId)}`, `type ${b64("matrix")}`, `uploadKey ${b64(randomUUID())}`].join(",");
    const created = await fetch(`${app.url}/uploads/tus`, { method: "POST", headers: headersOf(browser, { "Tus-Resumable": "1.0.0", "Upload-Length": String(50 * MiB), "Upload-Metadata": metadata }) });
    if (created.status !== 201) throw new Error(`tus create: HTTP ${created.status}`);
    return new URL(created.headers.get("Location")!, app.url).pathname;
  }

  type Sender = () => Promise<{ status: number; sent: number }>;
  const form: Sender = () => streamPost(app.url, "/cookies", generatedBody(bodyBytes, { head: "redirectTo=/&x=" }), { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" });
  const webhook: Sender = () => streamPost(app.url, "/api/webhooks/sandbox", generatedBody(bodyBytes, { head: '{"paymentId":"' }), { "Content-Type": "application/json" });
  const upload = (browser: Browser): Sender => () => {
    const { contentType, body } = multipartBody(bodyBytes);
    return streamPost(app.url, "/order", body, headersOf(browser, { "Content-Type": contentType }));
  };
  const chunk = (browser: Browser, path: string): Sender => () =>
    streamPost(app.url, path, generatedBody(bodyBytes), headersOf(browser, { "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }), "PATCH");

  /** Runs the senders at once beside a visitor; prints and records the figures. */
  async function scenario(name: string, senders: Sender[], offeredBytes = senders.length * bodyBytes) {
    await database.db.deleteFrom("rate_limits").execute();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const baseline = residentBytes(app.pid);
    const memory = sampleResident(app.pid);
    let attacking = true;
    let slowest = 0;
    let visits = 0;
    const visitor = (async () => {
      while (attacking) {
        const started = performance.now();
        const response = await fetch(`${app.url}/order`, { redirect: "manual" });
        await response.arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        visits++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(senders.map((send) => send()));
    const seconds = (performance.now() - started) / 1000;
    attacking = false;
    await visitor;
    const growth = (memory.stop() - baseline) / MiB;
    const sent = answers.reduce((sum, answer) => sum + answer.sent, 0) / MiB;
    const statuses = [...new Set(answers.map((answer) => answer.status))].join(", ");
    console.log(
      `${name}: RSS +${growth.toFixed(1)} MiB (baseline ${(baseline / MiB).toFixed(0)} MiB), all answered in ${seconds.toFixed(1)} s (${statuses}), ` +
        `senders got ${sent.toFixed(0)} MiB out of ${(offeredBytes / MiB).toFixed(0)}, slowest of ${visits} page loads meanwhile ${slowest.toFixed(0)} ms`,
    );
    figures.push({ name: `${name}: memory growth`, figure: `${growth.toFixed(1)} MiB`, target: `< ${TARGET_MIB} MiB`, met: growth < TARGET_MIB, value: growth });
    figures.push({ name: `${name}: time to answer all`, figure: `${seconds.toFixed(1)} s`, target: "", met: null, value: seconds });
    figures.push({ name: `${name}: slowest page meanwhile`, figure: `${slowest.toFixed(0)} ms`, target: "", met: null, value: slowest });
  }

  const uploaders: Array<{ browser: Browser; orderId: string; patientId: string }> = [];
  for (let i = 0; i < 4; i++) uploaders.push(await toMatrixStep(app, database.db));
  let tus = await tusPath(uploaders[3]!.browser, uploaders[3]!.orderId, uploaders[3]!.patientId);

  const gib = `${values.gib} GiB`;
  const all = () => [form, form, form, webhook, webhook, webhook, chunk(uploaders[3]!.browser, tus), ...uploaders.slice(0, 3).map((u) => upload(u.browser))];
  // A process's first upload leaves about 37 MiB more heap in use for good (set up once, measured
  // with --expose-gc; not per attack): counted on its own, before the attacks.
  const firstUpload: Sender = () => {
    const { contentType, body } = multipartBody(1 * MiB);
    return streamPost(app.url, "/order", body, headersOf(uploaders[0]!.browser, { "Content-Type": contentType }));
  };
  await scenario("the first upload of a fresh process (1 MiB)", [firstUpload], 1 * MiB);
  await scenario(`all 10 at once, the process's first attack, ${gib} each`, all());
  // The refused chunk took its upload with it: a new one for the next PATCHes.
  tus = await tusPath(uploaders[3]!.browser, uploaders[3]!.orderId, uploaders[3]!.patientId);
  await scenario(`3 forms, 3 webhooks, 1 tus chunk of ${gib}`, [form, form, form, webhook, webhook, webhook, chunk(uploaders[3]!.browser, tus)]);
  tus = await tusPath(uploaders[3]!.browser, uploaders[3]!.orderId, uploaders[3]!.patientId);
  await scenario(`3 plain-form uploads of ${gib} (anonymous, one address)`, uploaders.slice(0, 3).map((u) => upload(u.browser)));
  await scenario(`all 10 at once again, ${gib} each`, all());
} finally {
  await app.stop();
  await database.drop();
}
printResult({ bench: "body-limits", figures });
