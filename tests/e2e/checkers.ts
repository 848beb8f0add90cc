import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type Response, type TestInfo } from "@playwright/test";
import { checkPhoneLayout, checkPhoneLayoutInLanguages } from "./layout";
import { run } from "./support";

/**
 * Outside checkers over the pages a user meets (ADR 048): axe-core with the WCAG 2.1 A and AA rules in
 * the browser, failing on a serious or critical violation; and the server-rendered HTML of the same
 * page kept for the Nu HTML Checker, which `validateKeptDocuments` runs once over all of a project's
 * documents (it is Java: one start per project, not per page). Each check adds a line to the run's
 * tally, which the closing line of `npm test` counts (scripts/test-summary.mjs).
 */

export const CHECKER_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const FAILING_IMPACTS = new Set(["serious", "critical"]);

/** Documents for the Nu checker, one folder per run and project (cleared by checkers-setup.ts). */
export const DOCUMENTS_DIR = path.resolve(`tests/.tmp/checkers/${run}`);
const documentsOf = (testInfo: TestInfo) => path.join(DOCUMENTS_DIR, testInfo.project.name);
/** The tally: one JSON line per check, read by the summary. */
export const TALLY_FILE = path.resolve(`tests/.tmp/reports/checkers-${run}.jsonl`);

export function tally(line: { checker: "axe" | "vnu"; name: string; problems: number; checked?: number }) {
  fs.mkdirSync(path.dirname(TALLY_FILE), { recursive: true });
  fs.appendFileSync(TALLY_FILE, `${JSON.stringify(line)}\n`);
}

const lastDocument = new WeakMap<Page, Response>();

/** The page with JavaScript on in which a no-JavaScript page's copies are checked, one per page checked. */
const checkingPages = new Map<Page, Promise<Page>>();

function checkingPageFor(page: Page): Promise<Page> {
  let checking = checkingPages.get(page);
  if (!checking) {
    checking = page
      .context()
      .browser()!
      .newContext({ javaScriptEnabled: true, viewport: page.viewportSize() })
      .then((context) => context.newPage());
    checkingPages.set(page, checking);
  }
  return checking;
}

/** Closes the pages `checkPage` opened for no-JavaScript checks: each test's end (`test.afterEach`). */
export async function closeCheckingPages() {
  const pages = [...checkingPages.values()];
  checkingPages.clear();
  for (const checking of pages) await (await checking).context().close();
}

/**
 * axe needs JavaScript in the page. Without it (the no-JavaScript project) the page's DOM is what the
 * server sent, so axe checks a copy of it in a page of its own with JavaScript on: the same markup
 * and stylesheets (a `<base>` to the page's URL), none of the page's scripts — neither the scripts nor
 * the `modulepreload` links that only fetch them. One such page serves all the checks of a test, so
 * its stylesheets are fetched once, not once per page checked.
 */
async function axeResults(page: Page, testInfo: TestInfo) {
  if (testInfo.project.use.javaScriptEnabled !== false) return new AxeBuilder({ page }).withTags(CHECKER_TAGS).analyze();
  const copy = (await page.content())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "")
    .replace(/<head([^>]*)>/i, (head) => `${head}<base href="${page.url()}">`);
  const checked = await checkingPageFor(page);
  await checked.setContent(copy, { waitUntil: "load" });
  return new AxeBuilder({ page: checked }).withTags(CHECKER_TAGS).analyze();
}

/**
 * Remembers the page's latest server-rendered document (a navigation answer of its main frame), so a
 * check can hand the HTML the server sent to the Nu checker — with JavaScript on, the DOM axe sees
 * may have moved on since, which is what axe is for.
 */
export function watchDocuments(page: Page) {
  page.on("response", (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || response.frame() !== page.mainFrame()) return;
    if (response.status() >= 300 && response.status() < 400) return;
    if (!/^text\/html\b/.test(response.headers()["content-type"] ?? "")) return;
    lastDocument.set(page, response);
  });
}

/**
 * Checks the page as it stands: axe over the live DOM (fails the test on a serious or critical
 * violation, listing each rule, its help and the offending elements), keeps the last document the
 * server sent for the Nu checker, and measures the page on a phone at 360 and 390 px (ADR 095: no
 * sideways scroll, nothing under the messenger button). `name` says which page or state it is, for
 * the reports. With `languages`, for a page its address alone shows, the phone layout is measured in
 * the other five languages too.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string, options: { languages?: boolean } = {}) {
  await checkAccessibilityAndMarkup(page, testInfo, name);
  await checkPhoneLayout(page, name);
  if (options.languages) await checkPhoneLayoutInLanguages(page, name);
}

async function checkAccessibilityAndMarkup(page: Page, testInfo: TestInfo, name: string) {
  const label = `${testInfo.project.name}: ${name}`;
  const results = await axeResults(page, testInfo);
  const failing = results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""));
  tally({ checker: "axe", name: label, problems: failing.length });
  const described = failing.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(" ")}: ${node.failureSummary ?? ""}`).join("\n")}`,
  );
  expect.soft(described, `axe-core WCAG 2.1 A/AA serious or critical violations on ${label} (${page.url()})`).toEqual([]);

  const response = lastDocument.get(page);
  if (!response) return;
  let html: string;
  try {
    html = await response.text();
  } catch {
    return; // the browser no longer holds the body (a download or a replaced document)
  }
  const slug = createHash("sha256").update(html).digest("hex").slice(0, 16);
  const dir = documentsOf(testInfo);
  fs.mkdirSync(dir, { recursive: true });
  // One file per distinct document: the same HTML met twice is validated once.
  const file = path.join(dir, `${slug}.html`);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, html);
    fs.writeFileSync(`${file}.json`, JSON.stringify({ name: label, url: response.url() }));
  }
}

/** The package exports the jar's path (a String object); Java is Debian's (scripts/machine-packages.sh), never a downloaded one. */
const VNU_JAR = String(createRequire(import.meta.url)("vnu-jar"));

/**
 * The one filter (ADR 048): `<script>` elements after `</html>` — React's streamed data (with its
 * Suspense boundary comments), which the HTML parser moves into the body anyway — are cut before checking. Nothing else is left out: a
 * document with anything else after `</html>` is checked whole.
 */
export function withoutTrailingScripts(html: string): string {
  const end = html.lastIndexOf("</html>");
  if (end < 0) return html;
  const tail = html.slice(end + "</html>".length);
  return STREAMED_TAIL.test(tail) ? html.slice(0, end + "</html>".length) : html;
}

/** Only scripts and React's Suspense boundary comments (`<!--$-->`, `<!--/$-->`). */
const STREAMED_TAIL = /^(?:\s*(?:<script\b[^>]*>[\s\S]*?<\/script>|<!--\/?\$[!?]?-->))*\s*$/;

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/**
 * The Nu HTML Checker (vnu-jar) once over every document this project kept, failing on any error
 * (warnings are not errors). Returns the errors, described with the page or state they belong to.
 */
export function validateKeptDocuments(testInfo: TestInfo): string[] {
  const dir = documentsOf(testInfo);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(".html")) : [];
  expect(names.length, `documents kept by the checks in ${dir}`).toBeGreaterThan(0);
  const checkedDir = path.join(dir, "checked");
  fs.mkdirSync(checkedDir, { recursive: true });
  const files = names.map((name) => {
    const file = path.join(checkedDir, name);
    fs.writeFileSync(file, withoutTrailingScripts(fs.readFileSync(path.join(dir, name), "utf8")));
    return file;
  });
  const output = execFileSync("java", ["-jar", VNU_JAR, "--errors-only", "--format", "json", "--stdout", "--exit-zero-always", ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const messages = (JSON.parse(output) as { messages: VnuMessage[] }).messages.filter((message) => message.type === "error" || message.subType === "fatal");
  const byFile = new Map<string, VnuMessage[]>();
  for (const message of messages) {
    const file = path.basename(decodeURIComponent(new URL(message.url ?? "file:///unknown").pathname));
    byFile.set(file, [...(byFile.get(file) ?? []), message]);
  }
  const about = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8")) as { name: string; url: string };
  for (const name of names) tally({ checker: "vnu", name: about(name).name, problems: byFile.get(name)?.length ?? 0 });
  return [...byFile].map(([file, found]) => {
    const { name, url } = about(file);
    return `${name} (${url}, ${path.join(dir, file)}):\n${found.map((message) => `  line ${message.lastLine ?? "?"}: ${message.message} ${JSON.stringify(message.extract ?? "")}`).join("\n")}`;
  });
}
