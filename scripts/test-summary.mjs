// Adds up the JSON reports of vitest and playwright into one closing line: "N passed, N failed", and
// the run's wall time when scripts/test.sh says when it started (TEST_STARTED, seconds since the epoch).
// Before it, the slowest files of each runner: where the suite's time goes.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
// Named, so a CI log's last lines say what failed (and what passed only on its retry) without the scroll.
const failures = [];
const flaky = [];
/** Seconds per test file (a browser file's time summed over its projects and attempts), by runner. */
const durations = new Map();
const took = (runner, file, ms) => {
  const files = durations.get(runner) ?? new Map();
  durations.set(runner, files);
  files.set(file, (files.get(file) ?? 0) + ms / 1000);
};

/**
 * Why a test failed, on the same line: the error's first lines without colours and where it was
 * thrown, so the last lines of a CI log (all that may be kept of it) say what to look at.
 */
function why(error) {
  if (!error?.message) return "";
  // eslint-disable-next-line no-control-regex
  const plain = (text) => String(text).replace(/\u001b\[[0-9;]*m/g, "");
  const lines = plain(error.message).split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("at ")).slice(0, 4);
  const at = error.location ? ` at ${path.basename(error.location.file)}:${error.location.line}` : (plain(error.stack ?? error.message).match(/\(?([^\s()]+\.(?:test|spec)\.[mc]?ts):(\d+):\d+\)?/)?.slice(1, 3).join(":") ?? "");
  return `\n    ${lines.join(" | ").slice(0, 400)}${at && !at.startsWith(" at") ? ` at ${path.basename(at)}` : at}`;
}

function walkSuites(suites, report) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const where = `${report} [${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}`;
        if (test.status === "unexpected") failures.push(`${where}${why(test.results?.at(-1)?.error)}`);
        else if (test.status === "flaky") flaky.push(`${where}${why(test.results?.find((result) => result.error)?.error)}`);
        for (const result of test.results ?? []) took(report, spec.file, result.duration ?? 0);
      }
    }
    walkSuites(suite.suites, report);
  }
}

// The reports scripts/test.sh writes (its runners, ADR 059); other names may be given after the folder.
const reports = process.argv.length > 3 ? process.argv.slice(3) : ["vitest.json", "e2e-js.json", "e2e-nojs.json", "e2e-embedded.json"];
for (const name of reports) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    missing.push(name);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  if (name === "vitest.json") {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    // A file that failed to load has no test results but must count as a failure.
    failed += report.testResults.filter((result) => result.status === "failed" && result.assertionResults.length === 0).length;
    for (const result of report.testResults) {
      const file = path.relative(process.cwd(), result.name);
      if (result.endTime && result.startTime) took(name, file, result.endTime - result.startTime);
      if (result.status === "failed" && result.assertionResults.length === 0) failures.push(`vitest ${file} (did not load: ${result.message?.split("\n")[0] ?? ""})`);
      for (const assertion of result.assertionResults) {
        if (assertion.status === "failed") failures.push(`vitest ${file} › ${assertion.fullName}${why({ message: assertion.failureMessages?.[0] })}`);
      }
    }
  } else {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if (report.errors?.length) failed += report.errors.length;
    for (const error of report.errors ?? []) failures.push(`${name} error: ${String(error.message ?? "").split("\n")[0]}`);
    walkSuites(report.suites, name);
  }
}
if (missing.length) {
  process.stdout.write(`missing reports (a runner did not finish): ${missing.join(", ")}\n`);
  failed += missing.length;
}
// The outside checkers' tally (tests/e2e/checkers.ts, ADR 048): pages and states through axe-core,
// documents through the Nu HTML Checker, and what they found. Their failures are already counted
// above as the journeys' failed tests; this says how much they looked at.
const checks = { axe: { checked: 0, failing: 0 }, vnu: { checked: 0, failing: 0 } };
for (const name of fs.readdirSync(dir).filter((file) => /^checkers-.*\.jsonl$/.test(file))) {
  const file = path.join(dir, name);
  for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const { checker, problems } = JSON.parse(line);
    checks[checker].checked += 1;
    if (problems > 0) checks[checker].failing += 1;
  }
}
if (checks.axe.checked === 0 || checks.vnu.checked === 0) {
  process.stdout.write("the outside checkers did not run (no axe or Nu HTML Checker results)\n");
  failed += 1;
}
const checkers = `axe-core: ${checks.axe.checked} pages and states, ${checks.axe.failing} with serious or critical violations; Nu HTML Checker: ${checks.vnu.checked} documents, ${checks.vnu.failing} with errors`;
for (const [runner, files] of durations) {
  const slowest = [...files].sort((a, b) => b[1] - a[1]).slice(0, 8);
  process.stdout.write(`slowest in ${runner}: ${slowest.map(([file, seconds]) => `${file} ${Math.round(seconds)} s`).join(", ")}\n`);
}
for (const where of flaky) process.stdout.write(`flaky (passed on retry): ${where}\n`);
for (const where of failures) process.stdout.write(`FAILED: ${where}\n`);
const startedAt = Number(process.env.TEST_STARTED);
const elapsed = startedAt > 0 ? Math.round(Date.now() / 1000 - startedAt) : null;
const wall = elapsed === null ? "" : ` — in ${Math.floor(elapsed / 60)} min ${elapsed % 60} s`;
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""} — ${checkers}${wall}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
