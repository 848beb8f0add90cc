import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { getConfig } from "./app/modules/config/config.server";
import { isDatabaseUnavailable } from "./app/modules/db/unavailable";
import { finalErrorHandler, malformedTargets, stylesheetsOf } from "./app/modules/http/answers/error-page.server";
import { publicPageCache } from "./app/modules/http/answers/public-page-cache.server";
import { resendOnce } from "./app/modules/http/forms/idempotency.server";
import { installRouteMatchingCache } from "./app/modules/http/request/route-matching.server";
import { logger, requestFacts } from "./app/modules/log/logger.server";
import { requestLog } from "./app/modules/log/request-log.server";
import { requestMetrics } from "./app/modules/metrics/request-metrics.server";
import { ANY_HOST_PATHS, isHostAllowed } from "./app/modules/security/allowed-host";
import { bodyLimits } from "./app/modules/security/body-limit.server";
import { inFlightLimit } from "./app/modules/security/in-flight.server";
import { isCrossSiteRefused, mayForwardOrigin } from "./app/modules/security/same-origin";
import { cspNonce, servingHeaders } from "./app/modules/security/serving-headers.server";
import { currentTranslationsVersion } from "./app/modules/translations/overrides.server";

/**
 * The HTTP server: the same parts as remix-serve (express, compression, @remix-run/express),
 * plus what must run before any route: the request's id and log line, the host check, security and
 * cache headers, the cross-site request check, and the client IP handed to loaders and actions.
 */

installGlobals({ nativeFetch: true });

const BUILD_PATH = path.resolve("build/index.js");

async function importBuild(): Promise<ServerBuild> {
  const stamp = fs.statSync(BUILD_PATH).mtimeMs;
  return withOutagePage(await import(`${pathToFileURL(BUILD_PATH).href}?t=${stamp}`));
}

type DataFunction = (...args: never[]) => unknown;

/**
 * While the database cannot be reached, every loader and action answers 503 with a "try again in a
 * moment" page (the route's error boundary, Retry-After set) instead of the generic 500 page.
 */
function withOutagePage(build: ServerBuild): ServerBuild {
  // Resource routes render no error boundary: their 503 is a sentence in the reader's language
  // (entry.server's `outageAnswer`, ADR 024).
  const outageAnswer = (build.entry.module as { outageAnswer?: (request: Request) => Promise<Response> }).outageAnswer;
  const depth = (id: string): number => {
    const parentId = build.routes[id]?.parentId;
    return parentId ? 1 + depth(parentId) : 0;
  };
  const wrap = <F extends DataFunction | undefined>(run: F, resource: boolean, id: string): F => {
    if (!run) return run;
    const routeDepth = depth(id);
    return (async (...args: never[]) => {
      // The request's log line names the deepest route that answered (layouts load beside their pages).
      const facts = requestFacts();
      if (facts && (facts.routeDepth ?? -1) < routeDepth) Object.assign(facts, { routeId: id, routeDepth });
      try {
        return await run(...args);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        logger.error({ cause: (error as Error).message }, "database unavailable");
        const request = (args[0] as { request?: Request } | undefined)?.request;
        if (resource && request && outageAnswer) throw await outageAnswer(request);
        throw new Response("Service Unavailable", { status: 503, statusText: "Service Unavailable", headers: { "Retry-After": "30" } });
      }
    }) as F;
  };
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const resource = !route.module.default;
      return [id, { ...route, module: { ...route.module, loader: wrap(route.module.loader, resource, id), action: wrap(route.module.action, resource, id) } }];
    }),
  ) as ServerBuild["routes"];
  return { ...build, routes };
}

/** Resolves when the answer's connection has taken what was written (or is gone). */
function drained(res: Response): Promise<void> {
  if (!res.writableNeedDrain || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export interface ServerOptions {
  /** Trusted proxy hops in front of the app (Fly's edge is one). */
  trustProxy: boolean | number | string;
  development?: boolean;
}

export async function createApp(options: ServerOptions) {
  if (!installRouteMatchingCache()) logger.warn("route matching cache not installed: @remix-run/router's matchRoutes cannot be replaced");
  let build = await importBuild();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy);
  app.use(requestLog());
  // Duration by route and status, and requests in flight, for the metrics port (ADR 073).
  app.use(requestMetrics((routeId) => (build.routes[routeId]?.module.default ? "page" : "resource")));
  // One address's requests in flight are capped before anything reads them (ADR 056).
  app.use(inFlightLimit({ perAddress: getConfig().requestsInFlightPerAddress, stylesheets: () => stylesheetsOf(build) }));
  app.use(compression());
  // Remix flushes after every chunk it streams, and compression answers a flush with a zlib full
  // flush that resets the dictionary: HTML came out about 2.5 times larger (bench/RESULTS.md,
  // /packer). Our pages stream no deferred data, so the compressor decides when to send.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    (res as Response & { flush?: () => void }).flush = () => {};
    next();
  });

  // Only the configured hosts (DESIGN §3): a request naming another host gets no page to mislead with.
  // X-Forwarded-Host is dropped: our proxy keeps Host as the visitor sent it, so this header can only
  // come from the sender, and Remix would build the request's URL from it.
  const config = getConfig();
  app.use((req: Request, res: Response, next: NextFunction) => {
    delete req.headers["x-forwarded-host"];
    if (ANY_HOST_PATHS.has(req.path) || isHostAllowed(req.get("host"), config)) return next();
    const hint = config.strict ? "" : "Outside production, add the host name to ALLOWED_HOSTS (and PUBLIC_URL_* for links).\n";
    res.status(400).type("text/plain; charset=utf-8").send(`Неизвестный адрес сайта.\nUnknown host name.\n${hint}`);
  });

  app.use(servingHeaders(config));
  app.use(bodyLimits(config));

  // A target that does not decode is the product's 400 page, before anything tries to decode it
  // (express answered `/%` with its own page and the stack; ADR 040).
  const errorPages = { stylesheets: () => stylesheetsOf(build) };
  app.use(malformedTargets(errorPages));

  // Fingerprinted assets never change; other public files may. Every public file has an extension and
  // no page's address ends in one, so a page skips the disk lookup (and the error object of its miss)
  // that express.static would make for every request.
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  const publicFiles = express.static("public", { maxAge: "1h" });
  app.use((req: Request, res: Response, next: NextFunction) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  app.use((req: Request, res: Response, next: NextFunction) => {
    const facts = {
      method: req.method,
      path: req.originalUrl,
      siteOrigin: `${req.protocol}://${req.get("host")}`,
      origin: req.get("origin") ?? null,
      secFetchSite: req.get("sec-fetch-site") ?? null,
    };
    if (!isCrossSiteRefused(facts)) {
      if (!mayForwardOrigin({ ...facts, host: req.get("host") ?? null })) delete req.headers.origin;
      return next();
    }
    res
      .status(403)
      .type("text/plain; charset=utf-8")
      .send("Запрос отклонён: форма отправлена с другого сайта.\nRequest refused: it did not come from this site.\n");
  });

  // One handler per build: creating it derives Remix's route tables, work no request needs to repeat.
  const handlerFor = (current: ServerBuild) =>
    createRequestHandler({
      build: current,
      mode: options.development ? "development" : "production",
      getLoadContext: (req, res) => ({
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        dataRequest: req.path.endsWith(".data"),
        cspNonce: cspNonce(res),
        requestId: requestFacts()?.requestId ?? "",
        answerDrained: () => drained(res),
      }),
    });
  let handler = handlerFor(build);

  if (options.development) {
    // Rebuilds from `remix dev --manual` are picked up without restarting the process.
    fs.watchFile(BUILD_PATH, { interval: 300 }, async () => {
      build = await importBuild();
      handler = handlerFor(build);
      await broadcastDevReady(build);
    });
  }

  // An enhanced post sent again after its answer was lost gets the first answer, not a second effect (ADR 046).
  app.use(resendOnce());

  // Pages that are the same for every anonymous visitor come from memory after their first answer.
  app.use(publicPageCache({ version: currentTranslationsVersion }));
  app.all("*", (req, res, next) => handler(req, res, next));
  // Whatever fails in a middleware or in Remix is logged once and answered with a plain page, never a stack.
  app.use(finalErrorHandler(errorPages));

  if (options.development) await broadcastDevReady(build);
  return app;
}
