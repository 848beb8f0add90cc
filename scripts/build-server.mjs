// The server's own entry points as plain JavaScript, after `remix build` (ADR 080): the start script
// (with server.mts and the app modules it imports), the queue worker, migrations, backup, restore and
// the storage check, each bundled into build/server/<name>.js. Packages stay in node_modules; only the
// project's TypeScript is compiled. Production runs these files, so it needs no TypeScript at run time;
// `npm run dev` and the npm scripts of a checkout still run the sources through tsx.
import path from "node:path";
import { build } from "esbuild";

const ENTRIES = ["start", "queue-work", "migrate", "backup", "restore", "check-storage"];

await build({
  entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, path.join("scripts", `${name}.mts`)])),
  outdir: "build/server",
  outExtension: { ".js": ".js" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node24",
  // Each entry whole: esbuild's code splitting does not promise the order in which shared chunks run,
  // and ./load-env must run before anything reads the environment.
  sourcemap: "linked",
  logLevel: "warning",
  // The sources import the paths of tsconfig.json (~/…, ~db/…); esbuild reads them from there.
  tsconfig: "tsconfig.json",
  // package.json says "sideEffects": false for the browser bundle; the scripts import ./load-env and
  // ./production-mode for their effects alone, so the bundle keeps every import.
  ignoreAnnotations: true,
});
