import type { DB } from "../../app/modules/db/db.server";
import { type AppServer, browserFetch, startAppServer } from "../../tests/support/app-server";
import { buildPackingDay } from "../../tests/integration/packer/fixtures";

/**
 * The app as the page benchmarks see it: the real server (`scripts/start.mts`, NODE_ENV=production,
 * compression on) on its own PostgreSQL database with a working day of orders (the packer fixture:
 * 50 non-draft orders of 6 clinics), a signed-in clinic, and drafts walked through the wizard over
 * HTTP with form posts, as a browser without JavaScript would.
 */
export const SECRETS = { SESSION_SECRET: "bench-session-secret-0123456789abcdef", BACKOFFICE_PASSWORD: "bench-office", PACKER_PASSWORD: "bench-packer", CRON_SECRET: "bench-cron" };
/** A clinic of the packer fixture: its orders fill the cabinet. */
export const CLIENT_EMAIL = "info@ulybka-dental.ru";

export async function seedWorkingDay(db: DB): Promise<void> {
  await buildPackingDay(db, 50);
}

/**
 * `webConcurrency`: worker processes; undefined is the production default (one per core).
 * `root`: another checkout to serve (bench/ab.mts); `env`: variables on top.
 */
export function startBenchApp(
  databaseUrl: string,
  nodeArgs: string[] = [],
  webConcurrency?: number,
  { root, env = {} }: { root?: string; env?: Record<string, string> } = {},
): Promise<AppServer> {
  const workers = { WEB_CONCURRENCY: webConcurrency === undefined ? "" : String(webConcurrency) };
  // The load comes from one loopback address and stands for many visitors: the per-address cap on requests in flight (ADR 056) is not what is measured.
  const manyVisitors = { REQUESTS_IN_FLIGHT_PER_ADDRESS: "100000" };
  return startAppServer({ DATABASE_URL: databaseUrl, APP_ENV: "development", NODE_ENV: "production", ...SECRETS, ...workers, ...manyVisitors, ...env }, { timeoutMs: 120_000, nodeArgs, root });
}

/** A session cookie for the clinic, made the way the sign-in link makes it (the `sessions` row and the signed cookie). */
export async function clientSessionCookie(db: DB, app: AppServer, email = CLIENT_EMAIL): Promise<string> {
  Object.assign(process.env, SECRETS, { DATA_DIR: app.dataDir, APP_ENV: "development" });
  const { createUserSession } = await import("../../app/modules/auth/session.server");
  const user = (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()) ?? (await db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow());
  const setCookie = await createUserSession(db, user.id);
  return setCookie.split(";")[0]!;
}

/** Passes a password gate (`/backoffice/login` or `/packer`) and returns the browser's cookie header. */
export async function gateCookie(app: AppServer, gate: "backoffice" | "packer"): Promise<string> {
  const browser = browserFetch(app);
  const response =
    gate === "backoffice"
      ? await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } })
      : await browser.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
  if (response.status !== 302) throw new Error(`${gate} gate refused the password: HTTP ${response.status}`);
  return browser.jar.header();
}

type Browser = ReturnType<typeof browserFetch>;

/** A binary STL of `triangles` facets (content check: 84 + 50 × n bytes). */
function binaryStl(triangles: number): Blob {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("binary stl", 0);
  bytes.writeUInt32LE(triangles, 80);
  return new Blob([new Uint8Array(bytes)]);
}

async function uploadAndNext(browser: Browser, names: string[]) {
  const form = new FormData();
  for (const name of names) form.append("files", binaryStl(20), name);
  form.append("intent", "next");
  const response = await fetch(`${browser.app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: browser.app.url }, redirect: "manual" });
  browser.jar.store(response);
  return response;
}

async function post(browser: Browser, form: Record<string, string>) {
  const response = await browser.request("/order", { form });
  if (response.status !== 302) throw new Error(`wizard post ${JSON.stringify(form)}: HTTP ${response.status}\n${(await response.text()).slice(0, 500)}`);
}

/** Opens /order in the browser (taking any one-time toast) and checks the wizard shows `step`. */
async function expectStep(browser: Browser, step: number) {
  const page = await browser.request("/order");
  const html = await page.text();
  if (page.status !== 200 || !html.includes(`Шаг ${step} из 11`)) throw new Error(`expected wizard step ${step}, got HTTP ${page.status}: ${/Шаг \d+ из 11/.exec(html)?.[0] ?? "no step"}`);
}

/**
 * Walks a new draft through the 11 steps over HTTP (form posts, files uploaded on 5, 7 and 10),
 * calling `atStep(step, cookie)` on each step before moving on, until `lastStep`.
 */
export async function walkWizard(app: AppServer, atStep: (step: number, cookie: string) => Promise<void>, lastStep = 11): Promise<Browser> {
  const browser = browserFetch(app);
  const moves: Array<() => Promise<unknown>> = [
    () => post(browser, { intent: "next" }),
    () => post(browser, { intent: "next", email: `bench-${Date.now()}@clinic.ru`, phone: "+7 900 000-00-01" }),
    () => post(browser, { intent: "next", full_name: "Иванова Анна Сергеевна", address: "Москва, ул. Ленина, 1", consent: "on" }),
    () => post(browser, { intent: "next" }),
    () => uploadAndNext(browser, ["Верхняя челюсть.stl", "Нижняя челюсть.stl"]),
    () => post(browser, { intent: "next", matrix_type: "hard" }),
    () => uploadAndNext(browser, ["Шаг 01 верх.stl", "Шаг 01 низ.stl", "Шаг 02 верх.stl", "Шаг 02 низ.stl"]),
    () => post(browser, { intent: "next", material_type: "single_layer" }),
    () => post(browser, { intent: "next", cut_type: "wavy" }),
    () => uploadAndNext(browser, ["Ретейнер верх.stl"]),
  ];
  for (let step = 1; step <= lastStep; step++) {
    if (step === 4) await post(browser, { intent: "add_patient", patient_name: "Смирнова Е." });
    await expectStep(browser, step);
    await atStep(step, browser.jar.header());
    if (step < lastStep) await moves[step - 1]!();
  }
  return browser;
}
