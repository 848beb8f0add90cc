import fs from "node:fs";
import path from "node:path";

/**
 * The built entry point a test starts (`build/server/<name>.js`, what production runs; ADR 080), after
 * checking that the build is not older than the sources it was built from: a test of a stale build
 * would prove yesterday's code. `npm test` builds first; a single test file needs `npm run build`.
 */
export function builtEntry(root: string, name: "start" | "queue-work" | "migrate" | "backup" | "restore" | "check-storage"): string {
  const entry = path.join(root, "build/server", `${name}.js`);
  const remixBuild = path.join(root, "build/index.js");
  for (const built of [entry, remixBuild]) {
    if (!fs.existsSync(built)) throw new Error(`No ${path.relative(root, built)} in ${root}: run \`npm run build\` before the tests that start the server`);
  }
  const builtAt = Math.min(fs.statSync(entry).mtimeMs, fs.statSync(remixBuild).mtimeMs);
  const changed = newestSource(root);
  if (changed && changed.mtimeMs > builtAt) {
    throw new Error(`${path.relative(root, changed.file)} changed after the last build: run \`npm run build\` before the tests that start the server`);
  }
  return entry;
}

// Locales are read at run time, not built.
const SOURCES = ["app", "db", "scripts", "server.mts"];

/** The most recently changed source file the build reads (tests excluded), or none. */
function newestSource(root: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const visit = (file: string) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file)) visit(path.join(file, name));
      return;
    }
    if (/\.test\.tsx?$/.test(file)) return;
    if (!newest || stat.mtimeMs > newest.mtimeMs) newest = { file, mtimeMs: stat.mtimeMs };
  };
  for (const source of SOURCES) visit(path.join(root, source));
  return newest;
}
