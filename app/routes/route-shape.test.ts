import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ADR 030: every route module reads in one order — imports, `meta`, `loader`, `action`, the
 * component, `ErrorBoundary`. A route may leave any of them out; those it has keep that order.
 * Other exports (`links`, `handle`, `headers`) and the page's own helpers may sit in between.
 */
const ORDER = ["meta", "loader", "action", "component", "ErrorBoundary"] as const;
type Part = (typeof ORDER)[number];

const ROUTES_DIR = import.meta.dirname;

/** A top-level export, recognised at the start of its line (top-level code is never indented). */
function partOf(line: string): Part | null {
  if (/^export\s+default\b/.test(line)) return "component";
  const declared = /^export\s+(?:async\s+)?(?:function\*?|const|let)\s+([A-Za-z_$][\w$]*)/.exec(line)?.[1];
  const names = declared ? [declared] : (/^export\s*\{([^}]*)\}/.exec(line)?.[1] ?? "").split(",").map((name) => name.trim().split(/\s+as\s+/).pop() ?? "");
  for (const name of names) {
    if (name === "default") return "component";
    if ((ORDER as readonly string[]).includes(name)) return name as Part;
  }
  return null;
}

/** The parts a module exports, in the order its lines declare them. */
function partsInOrder(source: string): Part[] {
  return source
    .split("\n")
    .map(partOf)
    .filter((part): part is Part => part !== null);
}

/** Route modules as remix.config.js sees them: files, and folders holding a `route.*`; no dotfiles or tests. */
function routeModules(): string[] {
  return fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith(".") && !/\.test\.tsx?$/.test(entry.name))
    .flatMap((entry) => {
      if (!entry.isDirectory()) return /\.(tsx?|jsx?)$/.test(entry.name) ? [entry.name] : [];
      const route = fs.readdirSync(path.join(ROUTES_DIR, entry.name)).find((name) => /^route\.(tsx?|jsx?)$/.test(name));
      return route ? [path.join(entry.name, route)] : [];
    });
}

describe("route module shape", () => {
  it("knows the order of a module's parts", () => {
    const source = ["export function ErrorBoundary() {}", "export default function Page() {}", "export async function action() {}", "export const meta = () => [];", "export { load as loader };"].join("\n");
    expect(partsInOrder(source)).toEqual(["ErrorBoundary", "component", "action", "meta", "loader"]);
  });

  it("finds the route modules", () => {
    expect(routeModules().length).toBeGreaterThan(40);
  });

  it.each(routeModules())("%s: meta, loader, action, component, ErrorBoundary", (file) => {
    const parts = partsInOrder(fs.readFileSync(path.join(ROUTES_DIR, file), "utf8"));
    const expected = [...parts].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
    expect(parts).toEqual(expected);
    expect(new Set(parts).size).toBe(parts.length);
  });
});
