import fs from "node:fs";
import path from "node:path";

/**
 * The app's routes as Remix's flat-routes convention reads them from app/routes, so a test can
 * insist on an expectation for every route file that exists (a new file cannot be forgotten).
 *
 * Naming, as in @remix-run/dev's flat routes: dots separate URL segments; `[x]` escapes
 * characters (`backoffice.[test]` is `/backoffice/test`); `$name` is a parameter, `$` alone a
 * splat; `(x)` is optional; a leading `_` makes a pathless layout segment; a trailing `_` opts out
 * of the parent layout without changing the URL; `_index` is the index route of its parent.
 * Folders count when they hold a `route.*` file.
 */
export interface RouteFile {
  /** File or folder name under app/routes. */
  file: string;
  /** The route id without extension, e.g. `backoffice.orders.$orderId.delete`. */
  id: string;
  /** URL pattern, React Router style: `/backoffice/orders/:orderId/delete`, `/:lang?`, `/files/orders/*`. */
  pattern: string;
  index: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  /** Another route file nests under this one (a layout with the same URL as its index child). */
  isLayout: boolean;
}

export const ROUTES_DIR = path.resolve(import.meta.dirname, "../../../app/routes");

const MODULE = /\.(tsx?|jsx?|mdx?)$/;
/** remix.config.js `ignoredRouteFiles`: dotfiles and tests beside the routes are not routes. */
const IGNORED = (name: string) => name.startsWith(".") || /\.test\.tsx?$/.test(name);

/** Splits a route id on the dots that are not inside `[...]` escapes. */
export function routeSegments(id: string): string[] {
  const segments: string[] = [];
  let current = "";
  let escaped = false;
  for (const char of id) {
    if (char === "[") escaped = true;
    else if (char === "]") escaped = false;
    if (char === "." && !escaped) {
      segments.push(current);
      current = "";
    } else current += char;
  }
  segments.push(current);
  return segments;
}

/** The URL pattern of a flat-routes id. */
export function routePattern(id: string): { pattern: string; index: boolean } {
  const parts: string[] = [];
  let index = false;
  for (const raw of routeSegments(id)) {
    if (raw === "_index") {
      index = true;
      continue;
    }
    // A pathless layout segment adds nothing to the URL.
    if (raw.startsWith("_")) continue;
    let segment = raw.endsWith("_") && !raw.endsWith("]_") ? raw.slice(0, -1) : raw.replace(/\]_$/, "]");
    let optional = false;
    if (segment.startsWith("(") && segment.endsWith(")")) {
      optional = true;
      segment = segment.slice(1, -1);
    }
    let out: string;
    if (segment === "$") out = "*";
    else if (segment.startsWith("$")) out = `:${segment.slice(1)}`;
    else out = segment.replace(/\[([^\]]*)\]/g, "$1");
    parts.push(optional ? `${out}?` : out);
  }
  return { pattern: `/${parts.join("/")}`, index };
}

function sourceOf(entry: fs.Dirent): string {
  const file = entry.isDirectory()
    ? path.join(ROUTES_DIR, entry.name, fs.readdirSync(path.join(ROUTES_DIR, entry.name)).find((name) => /^route\.(tsx?|jsx?)$/.test(name))!)
    : path.join(ROUTES_DIR, entry.name);
  return fs.readFileSync(file, "utf8");
}

const exported = (source: string, name: string) => new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${name}\\b|export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(source);

/** Every route module under app/routes, with its URL pattern and whether it has a loader and an action. */
export function routeFiles(): RouteFile[] {
  const entries = fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .filter((entry) => !IGNORED(entry.name))
    .filter((entry) => (entry.isDirectory() ? fs.readdirSync(path.join(ROUTES_DIR, entry.name)).some((name) => /^route\.(tsx?|jsx?)$/.test(name)) : MODULE.test(entry.name)));
  const ids = entries.map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(MODULE, "")));
  return entries.map((entry, position) => {
    const id = ids[position]!;
    const source = sourceOf(entry);
    const { pattern, index } = routePattern(id);
    // A child is `${id}.something` (or `${id}_…` never: that opts out of the layout).
    const isLayout = !index && ids.some((other) => other.startsWith(`${id}.`));
    return { file: entry.name, id, pattern, index, hasLoader: exported(source, "loader"), hasAction: exported(source, "action"), isLayout };
  });
}

/** The key a route has in an expectation table: its pattern, with layouts and index routes told apart. */
export function routeKey(route: Pick<RouteFile, "pattern" | "isLayout">): string {
  return route.isLayout ? `${route.pattern} (layout)` : route.pattern;
}
