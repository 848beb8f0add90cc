import http from "node:http";
import client from "prom-client";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { instruments } from "./count.server";
import { databaseGauges, readDatabaseGauges } from "./database-gauges.server";

/**
 * The metrics port (METRICS_PORT, ADR 073): `GET /metrics` in the Prometheus text format, on an
 * address of its own, never on the public port. Everything else is 404.
 *
 * One process answers for its machine's process group. The primary of several web workers gathers
 * their counters over the cluster's IPC (prom-client's AggregatorRegistry: counters and histograms
 * summed, gauges summed or averaged as prom-client defines) and adds the database gauges, read once
 * per scrape; a single web process and `npm run queue:work` answer with their own.
 */

export interface MetricsServerOptions {
  port: number;
  host: string;
  /** "workers": this process is the primary of web workers and gathers their counters. */
  gather: "self" | "workers";
  /** The database the gauges are read from (opened when first scraped). */
  db: () => Promise<DB>;
  /** The queue's attempts per file (QUEUE_MAX_ATTEMPTS): entries past it have been given up. */
  maxAttempts: number;
}

/** In a web worker of a cluster: answer the primary's requests for this process's counters. */
export function answerPrimaryForMetrics() {
  new client.AggregatorRegistry();
  client.AggregatorRegistry.setRegistries([instruments().registry]);
}

async function exposition(options: MetricsServerOptions, aggregator: client.AggregatorRegistry<client.PrometheusContentType> | null): Promise<string> {
  const own = aggregator ? aggregator.clusterMetrics() : instruments().registry.metrics();
  await readDatabaseGauges(await options.db(), { maxAttempts: options.maxAttempts });
  const parts = await Promise.all([own, databaseGauges().registry.metrics()]);
  return parts.map((part: string) => (part.endsWith("\n") ? part : `${part}\n`)).join("");
}

/** Starts the metrics port; resolves once it listens. A port that cannot be had is logged, not fatal: the shop keeps serving. */
export function startMetricsServer(options: MetricsServerOptions): Promise<http.Server | null> {
  const aggregator = options.gather === "workers" ? new client.AggregatorRegistry<client.PrometheusContentType>() : null;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Use GET\n");
      return;
    }
    exposition(options, aggregator).then(
      (text) => res.writeHead(200, { "Content-Type": client.Registry.PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : text),
      (error: unknown) => {
        logger.error("metrics not gathered:", error);
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics could not be gathered\n");
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.once("error", (error) => {
      logger.error(`metrics port ${options.host}:${options.port} not opened (${(error as Error).message}); serving without metrics`);
      resolve(null);
    });
    server.listen(options.port, options.host, () => {
      logger.info(`metrics on http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}/metrics`);
      resolve(server);
    });
  });
}
