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
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
