// Adds up the JSON reports of vitest and playwright into one closing line: "N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

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
  } else {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if (report.errors?.length) failed += report.errors.length;
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
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""} — ${checkers}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
