import { matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { installRouteMatchingCache, memoizedMatchRoutes, type MatchRoutes, type RouteLike } from "./route-matching.server";

/** A route tree shaped like the app's: an optional language segment, splats, pathless and nested layouts, index routes. */
function appLikeRoutes(extra: RouteLike[] = []): RouteLike[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/($lang)._index", path: ":lang?", index: true },
        { id: "routes/$", path: "*" },
        { id: "routes/order", path: "order" },
        { id: "routes/order.new", path: "order/new" },
        { id: "routes/pay.$orderId", path: "pay/:orderId" },
        { id: "routes/files.orders.$", path: "files/orders/*" },
        { id: "routes/texts.$key", path: "texts/:key" },
        { id: "routes/cabinet", path: "cabinet" },
        { id: "routes/Packer", path: "Packer", caseSensitive: true },
        { id: "routes/backoffice_.login", path: "backoffice/login" },
        {
          id: "routes/backoffice",
          path: "backoffice",
          children: [
            { id: "routes/backoffice._index", index: true },
            { id: "routes/backoffice.$", path: "*" },
            { id: "routes/backoffice.[test]", path: "test" },
            { id: "routes/backoffice.orders.$orderId.delete", path: "orders/:orderId/delete" },
            { id: "routes/backoffice.orders.$orderId.status", path: "orders/:orderId/status" },
            { id: "routes/__pathless", children: [{ id: "routes/__pathless.inner", path: "inner/:a?/:b?" }] },
          ],
        },
        ...extra,
      ],
    },
  ];
}

const PATHS = [
  "/",
  "/en",
  "/de/",
  "/zz",
  "/order",
  "/ORDER",
  "/order/new",
  "/order?id=1#x",
  "/pay/8f0e1c2a",
  "/pay/%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7",
  "/files/orders/order_1/p/aligners/a%20b.stl",
  "/texts/ru.customer.abc",
  "/cabinet",
  "/packer",
  "/Packer",
  "/backoffice",
  "/backoffice/",
  "/backoffice/test",
  "/backoffice/login",
  "/backoffice/orders/abc/delete",
  "/backoffice/orders/abc/status",
  "/backoffice/orders/abc/unknown",
  "/backoffice/inner/1/2",
  "/backoffice/inner",
  "/nowhere/at/all",
  "",
];

/** What a caller can see of an answer: the matches' fields and which route object each names. */
function plain(matches: ReturnType<MatchRoutes>) {
  return matches?.map((match) => ({ params: { ...match.params }, pathname: match.pathname, pathnameBase: match.pathnameBase, route: match.route }));
}

describe("route matching kept per route shape and path", () => {
  const original = matchRoutes as unknown as MatchRoutes;

  it("answers as the router does, with the caller's own route objects, for trees made anew on each request", () => {
    const memoized = memoizedMatchRoutes(original);
    for (let request = 0; request < 3; request++) {
      const routes = appLikeRoutes();
      for (const path of PATHS) {
        for (const location of [path, { pathname: path.split(/[?#]/)[0] }]) {
          const expected = plain(original(routes, location));
          const answer = plain(memoized(routes, location));
          expect(answer, `${JSON.stringify(location)} on request ${request}`).toEqual(expected);
          answer?.forEach((match, index) => expect(match.route).toBe(expected![index]!.route));
        }
      }
    }
  });

  it("answers a basename as the router does", () => {
    const memoized = memoizedMatchRoutes(original);
    const routes = appLikeRoutes();
    for (const path of ["/app/order", "/app", "/order"]) expect(plain(memoized(routes, path, "/app"))).toEqual(plain(original(routes, path, "/app")));
  });

  it("tells trees of another shape apart: a route added elsewhere changes the answer", () => {
    const memoized = memoizedMatchRoutes(original);
    expect(memoized(appLikeRoutes(), "/partner/ab12")!.at(-1)!.route.id).toBe("routes/$");
    const withPartner = appLikeRoutes([{ id: "routes/partner.$code", path: "partner/:code" }]);
    expect(memoized(withPartner, "/partner/ab12")!.at(-1)!.route.id).toBe("routes/partner.$code");
  });

  it("gives each answer params of its own: a caller changing them changes no later answer", () => {
    const memoized = memoizedMatchRoutes(original);
    const routes = appLikeRoutes();
    const first = memoized(routes, "/pay/abc")!;
    first.at(-1)!.params.orderId = "changed";
    const second = memoized(routes, "/pay/abc")!;
    expect(second.at(-1)!.params).toEqual({ orderId: "abc" });
    // One params object for all the matches of an answer, as the router gives them.
    expect(second[0]!.params).toBe(second.at(-1)!.params);
  });

  it("calls the router once per shape and path", () => {
    let calls = 0;
    const memoized = memoizedMatchRoutes((routes, location, basename) => {
      calls++;
      return original(routes, location, basename);
    });
    for (let request = 0; request < 5; request++) memoized(appLikeRoutes(), "/cabinet");
    memoized(appLikeRoutes(), "/order");
    expect(calls).toBe(2);
  });

  it("is installed over the router that Remix's request handler calls", () => {
    const remix = createRequire(import.meta.url).resolve("@remix-run/server-runtime");
    const router = createRequire(remix)("@remix-run/router") as { matchRoutes: MatchRoutes };
    const before = router.matchRoutes;
    expect(installRouteMatchingCache()).toBe(true);
    expect(installRouteMatchingCache()).toBe(true);
    expect(router.matchRoutes).not.toBe(before);
    const routes = appLikeRoutes();
    expect(plain(router.matchRoutes(routes, "/backoffice/test"))).toEqual(plain(original(routes, "/backoffice/test")));
  });

  it("answers the data router's own matching too: its static handler matches through the export (scripts/patch-packages.mjs)", async () => {
    const remix = createRequire(import.meta.url).resolve("@remix-run/server-runtime");
    const router = createRequire(remix)("@remix-run/router") as {
      matchRoutes: MatchRoutes;
      createStaticHandler: (routes: RouteLike[]) => { query: (request: Request) => Promise<unknown>; queryRoute: (request: Request) => Promise<unknown> };
    };
    const installed = router.matchRoutes;
    let calls = 0;
    router.matchRoutes = ((routes, location, basename) => {
      calls++;
      return installed(routes, location, basename);
    }) as MatchRoutes;
    try {
      const handler = router.createStaticHandler([{ id: "root", path: "/", children: [{ id: "cabinet", path: "cabinet", loader: () => "orders" } as RouteLike] }]);
      const context = (await handler.query(new Request("http://localhost/cabinet"))) as { matches: Array<{ route: { id: string } }> };
      expect(context.matches.map((match) => match.route.id)).toEqual(["root", "cabinet"]);
      expect(await handler.queryRoute(new Request("http://localhost/cabinet"))).toBe("orders");
      expect(calls).toBe(2);
    } finally {
      router.matchRoutes = installed;
    }
  });
});
