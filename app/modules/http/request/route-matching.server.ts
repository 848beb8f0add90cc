import { createRequire } from "node:module";

/**
 * Route matching once per process and path, not four times per request (docs/decisions/037).
 *
 * Remix answers a document request by matching its path against every route several times —
 * the request handler, the data router's query, the rendered routes and the route manifest for
 * the browser — and each `matchRoutes` call flattens and ranks all the routes and compiles a
 * regular expression for each branch it tries: about a tenth of a personal page's CPU time
 * (bench/RESULTS.md). The answer depends only on the route tree's shape and the path, so it is
 * kept per shape and path, and handed out with the caller's own route objects.
 *
 * Installed over `@remix-run/router`'s exported `matchRoutes`, which the request handler, React
 * Router and Remix's renderer call through the module's exports; the data router's static handler
 * calls it there too once scripts/patch-packages.mjs has run (ADR 101).
 */

export interface RouteLike {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteLike[];
}

export interface RouteMatchLike<R extends RouteLike = RouteLike> {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: R;
}

type LocationArg = string | { pathname?: string };
export type MatchRoutes = <R extends RouteLike>(routes: R[], location: LocationArg, basename?: string) => RouteMatchLike<R>[] | null;

/** A match with its route named by position: its index among its parent's children. */
interface KeptMatch {
  position: number;
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
}

const MAX_KEPT = 2000;

/** What matching reads of a route tree: ids, paths, index and case flags, nesting. */
function shapeOf(routes: RouteLike[]): string {
  let shape = "";
  const walk = (list: RouteLike[]) => {
    for (const route of list) {
      shape += `${route.id ?? ""}\u0001${route.path ?? "\u0002"}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`;
      if (route.children?.length) {
        shape += "\u0003";
        walk(route.children);
        shape += "\u0004";
      }
      shape += "\u0005";
    }
  };
  walk(routes);
  return shape;
}

function pathnameOf(location: LocationArg): string {
  if (typeof location !== "string") return location.pathname ?? "/";
  const end = location.search(/[?#]/);
  return end === -1 ? location : location.slice(0, end);
}

/** `matchRoutes` with its answers kept per route-tree shape, basename and path. */
export function memoizedMatchRoutes(original: MatchRoutes): MatchRoutes {
  const shapes = new WeakMap<object, string>();
  const kept = new Map<string, KeptMatch[] | null>();

  return function matchRoutes<R extends RouteLike>(routes: R[], location: LocationArg, basename = "/") {
    let shape = shapes.get(routes);
    if (shape === undefined) {
      shape = shapeOf(routes);
      shapes.set(routes, shape);
    }
    const key = `${basename}\u0000${pathnameOf(location)}\u0000${shape}`;
    let found = kept.get(key);
    if (found === undefined) {
      const matches = original(routes, location, basename);
      found = matches ? remember(routes, matches) : null;
      if (found?.some((match) => match.position < 0)) return matches;
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(key, found);
    }
    return found ? resolve(routes, found) : null;
  };
}

function remember(routes: RouteLike[], matches: RouteMatchLike[]): KeptMatch[] {
  let siblings: RouteLike[] | undefined = routes;
  return matches.map((match) => {
    const position = siblings ? siblings.indexOf(match.route) : -1;
    siblings = match.route.children;
    return { position, params: { ...match.params }, pathname: match.pathname, pathnameBase: match.pathnameBase };
  });
}

/** The kept matches with the caller's route objects; one params object for all, as the router gives. */
function resolve<R extends RouteLike>(routes: R[], found: KeptMatch[]): RouteMatchLike<R>[] {
  const params = { ...found[found.length - 1]!.params };
  let siblings: RouteLike[] | undefined = routes;
  return found.map((match) => {
    const route = siblings![match.position] as R;
    siblings = route.children;
    return { params, pathname: match.pathname, pathnameBase: match.pathnameBase, route };
  });
}

let installed = false;

/**
 * Puts the memoized `matchRoutes` in place of the router module's export, once per process.
 * Returns false, changing nothing, where the export cannot be replaced (a router that no longer
 * exposes it as a plain property): pages then match as Remix does by itself.
 */
export function installRouteMatchingCache(): boolean {
  if (installed) return true;
  // The copy of the router that Remix's request handler loads (React Router's is the same package).
  const remix = createRequire(import.meta.url).resolve("@remix-run/server-runtime");
  const router = createRequire(remix)("@remix-run/router") as { matchRoutes: MatchRoutes };
  const original = router.matchRoutes;
  try {
    router.matchRoutes = memoizedMatchRoutes(original);
  } catch {
    return false;
  }
  installed = router.matchRoutes !== original;
  return installed;
}
