// Changes made to installed packages after every `npm install` / `npm ci` (package.json "postinstall",
// the Dockerfile's installs too; ADR 101). Each is an exact text replaced by another, with the number
// of places it must be found: a package that changed (an upgrade) stops the install with a message
// here instead of being left unpatched. Running it again on a patched package changes nothing.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

const patches = [
  {
    // The data router's static handler (what answers every document and data request on the server)
    // matches the path by the router's module-local `matchRoutes`, which flattens and ranks all the
    // routes on every call; through the module's export it takes the per-path cache that the server
    // installs there (app/modules/http/request/route-matching.server.ts, ADR 037 and 101).
    file: "node_modules/@remix-run/router/dist/router.cjs.js",
    from: "    let matches = matchRoutes(dataRoutes, location, basename);",
    to: "    let matches = exports.matchRoutes(dataRoutes, location, basename);",
    places: 2,
  },
];

const count = (text, part) => text.split(part).length - 1;

for (const patch of patches) {
  const file = path.join(root, patch.file);
  // A production install without the package (none today) has nothing to patch.
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, "utf8");
  const unpatched = count(text, patch.from);
  const patched = count(text, patch.to);
  if (unpatched === 0 && patched === patch.places) continue;
  if (unpatched !== patch.places || patched !== 0) {
    process.stderr.write(`patch-packages: ${patch.file} is not the version this patch was written for (found the text ${unpatched} times, its patched form ${patched} times, expected ${patch.places}); see scripts/patch-packages.mjs and ADR 101\n`);
    process.exit(1);
  }
  fs.writeFileSync(file, text.replaceAll(patch.from, patch.to));
  process.stdout.write(`patch-packages: ${patch.file}: ${patch.places} places patched\n`);
}
