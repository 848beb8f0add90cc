// Adds up the JSON reports of vitest and playwright into one closing line: "N passed, N failed".
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

function walkSuites(suites, report) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const where = `${report} [${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}`;
        if (test.status === "unexpected") failures.push(where);
        else if (test.status === "flaky") flaky.push(where);
      }
    }
    walkSuites(suite.suites, report);
  }
}

for (const name of ["vitest.json", "e2e.json", "e2e-embedded.json"]) {
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
      if (result.status === "failed" && result.assertionResults.length === 0) failures.push(`vitest ${file} (did not load: ${result.message?.split("\n")[0] ?? ""})`);
      for (const assertion of result.assertionResults) {
        if (assertion.status === "failed") failures.push(`vitest ${file} › ${assertion.fullName}`);
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
for (const name of ["checkers-e2e.jsonl", "checkers-embedded.jsonl"]) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) continue;
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
for (const where of flaky) process.stdout.write(`flaky (passed on retry): ${where}\n`);
for (const where of failures) process.stdout.write(`FAILED: ${where}\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""} — ${checkers}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
