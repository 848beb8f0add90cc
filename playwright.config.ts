import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { dataDir, e2eDatabaseUrl, run } from "./tests/e2e/support";

/**
 * Two targets, each run with JavaScript on and off:
 * - default: the app on PostgreSQL (DATABASE_URL's server, a fresh `aligner_e2e` database with demo data):
 *   every journey;
 * - E2E_TARGET=embedded: a zero-configuration `npm start` (PGlite, folders, in-process queue, outbox,
 *   generated secrets), so the embedded default cannot rot: the journeys that prove those defaults
 *   (EMBEDDED_JOURNEYS). The others meet nothing there the PostgreSQL target has not met (ADR 059).
 * Browsers are Debian's Chromium, never a downloaded one.
 */
const embedded = process.env.E2E_TARGET === "embedded";
// Ports and database can be moved so that two runs on one machine never meet.
const port = Number(process.env.E2E_PORT ?? (embedded ? 3220 : 3210));
const baseURL = `http://127.0.0.1:${port}`;
// `npm test` runs several at once (ADR 059): each run (E2E_RUN) has its own folders under tests/.tmp —
// the server's data, the files its journeys choose, its traces and attachments.
const outputDir = path.resolve(`tests/.tmp/${run}-results`);

export const E2E_BACKOFFICE_PASSWORD = "e2e-office-password";

/**
 * The embedded target's journeys (ADR 059): each area's pages and queries on PGlite once — ordering
 * with uploads and the international market (wizard), signing in by the outbox's link (accounts),
 * sandbox payments, the back office, packer, partners, translations and roles, the file-server queue
 * run in-process into its folder (ftp) — and the zero-configuration origins (zero-config). Browser,
 * network, header and markup journeys (landing, shell, csp, checkers, form checks, connection,
 * failures, uploads on slow links, EU languages) repeat the PostgreSQL target's exactly.
 */
const EMBEDDED_JOURNEYS = ["zero-config", "wizard", "accounts", "payments", "backoffice", "packer", "partners", "texts", "roles", "ftp"];

// Each market's public origin, and the test host the app answers besides loopback (DESIGN §3).
const markets = {
  PUBLIC_URL_DOMESTIC: baseURL,
  PUBLIC_URL_INTERNATIONAL: `http://aligners-e2e.com:${port}`,
  ALLOWED_HOSTS: "aligners-e2e.com",
};

// One log line per request would bury the journeys' output; warnings and errors still show.
const logs = { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" };
// Every journey signs in from 127.0.0.1: more than the 20 links an hour one real address may ask for.
const signIn = { SIGN_IN_LINKS_PER_IP_HOUR: "500" };
// Every journey starts its orders from 127.0.0.1 too: more than the 100 drafts a day of one real address.
const drafts = { DRAFTS_PER_IP_DAY: "5000" };

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    // Debian's old headless shell (package chromium-headless-shell), as Playwright's own headless
    // default is: the same Blink and V8 without the full browser's interface (ADR 059).
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
    // The international market is reached through a host name ending in .com (DESIGN §3), resolved to loopback.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--host-resolver-rules=MAP aligners-e2e.com 127.0.0.1",
      // Debian's `chromium` wrapper turns on GPU rasterization (/etc/chromium.d/default-flags); without
      // a GPU that is SwiftShader emulating one, and the GPU process became the suite's busiest process.
      // Skia's own software raster draws the same pages for a fraction of the CPU (ADR 059). Kept for
      // CHROMIUM_PATH=/usr/bin/chromium (the full browser, through that wrapper).
      "--disable-gpu-rasterization",
    ],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: embedded ? EMBEDDED_JOURNEYS.map((name) => `**/${name}.spec.ts`) : undefined,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // The last resort, not a wait: journeys wait on conditions. A journey of many steps on a busy
  // machine (two CPU-bound processes beside the suite) takes longer than on a quiet one (ADR 059).
  timeout: 60_000,
  // A condition's wait, not a delay: an assertion returns as soon as it holds. Five seconds (the
  // default) was shorter than a server action on a loaded machine (a file sent over SFTP by hand).
  expect: { timeout: 15_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  outputDir,
  // A failed journey keeps its trace (DOM snapshots, network, console) without the screencast's
  // filmstrip: recording every frame of every journey kept Chromium's compositor busy (ADR 059). In CI,
  // which retries, only the retry records one: tracing every first attempt cost a tenth of the
  // journeys' time, and a first failure still keeps its error and page snapshot (error-context.md).
  use: { baseURL, trace: { mode: process.env.CI ? "on-first-retry" : "retain-on-failure", screenshots: false } },
  // Clears the documents the outside checkers keep (ADR 048).
  globalSetup: "./tests/e2e/checkers-setup.ts",
  projects: [
    { name: embedded ? "embedded-js" : "js", use: { ...chromium, javaScriptEnabled: true } },
    { name: embedded ? "embedded-nojs" : "nojs", use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: embedded
    ? {
        // `npm start` is `remix build` then scripts/start.mts; `npm test` has built already (E2E_BUILT), and
        // building again would empty public/build under the runners serving from it.
        command: process.env.E2E_BUILT ? "node build/server/start.js" : "npm start",
        url: `${baseURL}/healthz`,
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: "pipe",
        // No international origin: the zero-configuration default, http://international.localhost:PORT
        // (ADR 048), is what this target proves; aligners-e2e.com is still answered as an alias.
        env: { PORT: String(port), DATA_DIR: dataDir, I18N_STRICT: "1", DATABASE_URL: "", APP_ENV: "", ...markets, PUBLIC_URL_INTERNATIONAL: "", ...logs, ...signIn, ...drafts },
      }
    : {
        // The built server, as production runs it (ADR 080): `npm run build` first, as `npm test` does.
        command: "node --import tsx tests/e2e/prepare-database.mts && node build/server/start.js",
        url: `${baseURL}/healthz`,
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: "pipe",
        env: {
          PORT: String(port),
          DATA_DIR: dataDir,
          APP_ENV: "test",
          DATABASE_URL: e2eDatabaseUrl(),
          BACKOFFICE_PASSWORD: E2E_BACKOFFICE_PASSWORD,
          PACKER_PASSWORD: "e2e-packer-password",
          QUEUE_IN_PROCESS: "false",
          // One process: a journey that edits and then reads (translations) must not wait for another's cache.
          WEB_CONCURRENCY: "1",
          ...markets,
          ...logs,
          ...signIn,
          ...drafts,
        },
      },
});
