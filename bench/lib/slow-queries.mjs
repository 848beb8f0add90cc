// Preloaded into an app server by bench/scale.mts --explain (`node --import …/slow-queries.mjs`):
// every database query that takes SLOW_QUERY_MS (default 50) or longer is written to stderr as
// `SLOW_QUERY {"ms":…,"text":…,"params":[…]}`, so the benchmark can run EXPLAIN ANALYZE of it
// itself. Plain JavaScript: it loads before the TypeScript loader.
import { createRequire } from "node:module";
import process from "node:process";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const pg = require("pg");
const threshold = Number(process.env.SLOW_QUERY_MS ?? 50);
const query = pg.Client.prototype.query;

pg.Client.prototype.query = function timedQuery(config, values, callback) {
  const started = performance.now();
  const result = query.call(this, config, values, callback);
  if (result && typeof result.then === "function") {
    result.then(
      () => {
        const ms = performance.now() - started;
        if (ms < threshold) return;
        const text = typeof config === "string" ? config : config?.text;
        const params = Array.isArray(values) ? values : config?.values;
        process.stderr.write(`SLOW_QUERY ${JSON.stringify({ ms: Math.round(ms), text, params: params ?? [] })}\n`);
      },
      () => {},
    );
  }
  return result;
};
