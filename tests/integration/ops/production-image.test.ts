import fs from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtEntry } from "../../support/built-server";

/**
 * The production image installs `dependencies` only and runs the built server (ADR 080): every
 * package a built entry imports must be among them, and no process of the image may need TypeScript.
 */
const ROOT = process.cwd();
const ENTRIES = ["start", "queue-work", "migrate", "backup", "restore", "check-storage"] as const;
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** The packages a bundled file imports by name: `import … from "x"`, `import "x"`, `import("x")`. */
function importedPackages(source: string): Set<string> {
  const names = new Set<string>();
  // A specifier holds no white space: `"from"]` in a list of label names is not an import.
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'./\s][^"'\s]*)["']/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!)) continue;
    names.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);
  }
  return names;
}

describe("the production image", () => {
  it.each(ENTRIES)("build/server/%s.js imports only production dependencies", (name) => {
    const source = fs.readFileSync(builtEntry(ROOT, name), "utf8");
    const packages = [...importedPackages(source)];
    expect(packages.length).toBeGreaterThan(0);
    expect(packages.filter((name) => !(name in manifest.dependencies))).toEqual([]);
    // The project's TypeScript is compiled in, never imported from a source file.
    expect(source).not.toMatch(/from\s*["'][^"']*\.(?:ts|mts|tsx)["']/);
  });

  it("needs no TypeScript at run time: tsx is a development dependency, and every process runs a built file", () => {
    expect(manifest.dependencies).not.toHaveProperty("tsx");
    const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^CMD \["node", .*"build\/server\/start\.js"\]$/m);
    expect(dockerfile).not.toMatch(/--import["\s,]+tsx|\.mts\b|COPY --from=build \/app\/(app|db|scripts) /);
    const fly = fs.readFileSync(path.join(ROOT, "fly.toml"), "utf8");
    // The release command and the process groups (the app's name is a line `app = "…"` too).
    const commands = [...fly.matchAll(/^\s*(?:release_command|app|worker)\s*=\s*"(node [^"]+)"/gm)].map((match) => match[1]);
    expect(commands).toEqual(["node build/server/migrate.js", "node --enable-source-maps build/server/start.js", "node --enable-source-maps build/server/queue-work.js"]);
  });

  it("runs no crypto-js: the sign-in package's require of it finds the stand-in, which the image carries (ADR 027)", () => {
    expect(manifest.dependencies["crypto-js"]).toBe("file:./vendor/crypto-js-replaced");
    const fromSignIn = createRequire(createRequire(path.join(ROOT, "package.json")).resolve("remix-auth-email-link"));
    const loaded = fs.realpathSync(fromSignIn.resolve("crypto-js"));
    expect(loaded).toBe(path.join(ROOT, "vendor/crypto-js-replaced/index.js"));
    expect(() => (fromSignIn("crypto-js") as { AES: { encrypt: () => void } }).AES.encrypt()).toThrow(/crypto-js is not installed/);
    // The link points into vendor/: every stage that installs or runs the packages has that folder.
    const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
    expect(dockerfile.match(/^COPY (?:--from=prod-deps \/app\/)?vendor \.\/vendor$/gm)).toHaveLength(3);
  });
});
