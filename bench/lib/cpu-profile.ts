import fs from "node:fs";
import path from "node:path";

/**
 * Where a server spent its CPU: a V8 profile (`node --cpu-prof`) summed by self time into the parts
 * of the stack — React's renderer, Remix, express and compression, the database client, our own
 * bundle (build/index.js), Node's internals, garbage collection and idle time.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function partOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8/native (program)";
    return `native: ${functionName || "(anonymous)"}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) {
    if (pkg === "react-dom" || pkg === "react" || pkg === "scheduler") return "React server render (react-dom)";
    if (pkg.startsWith("@remix-run/") || pkg === "turbo-stream" || pkg === "cookie-signature" || pkg === "cookie") return `Remix (${pkg})`;
    if (["express", "compression", "body-parser", "send", "serve-static", "finalhandler", "router", "path-to-regexp", "on-headers", "compressible", "vary", "negotiator", "accepts", "mime-types", "mime-db", "debug", "etag", "fresh", "range-parser", "qs", "depd", "statuses", "proxy-addr", "ipaddr.js", "parseurl", "content-type", "type-is", "safe-buffer"].includes(pkg)) return `express stack (${pkg})`;
    if (["pg", "pg-protocol", "pg-pool", "pg-types", "postgres-date", "postgres-array", "postgres-interval", "pg-connection-string", "kysely"].includes(pkg)) return `database client (${pkg})`;
    return `package ${pkg}`;
  }
  if (url.includes("/build/index.js")) return "app bundle (build/index.js: loaders, components)";
  if (url.startsWith("node:")) return `Node internals (${url.replace(/^node:(internal\/)?/, "").split("/")[0]})`;
  return path.basename(url.replace(/^file:\/\//, ""));
}

export interface ProfileSummary {
  busyMs: number;
  totalMs: number;
  parts: Array<{ part: string; ms: number; percentOfBusy: number }>;
  functions: Array<{ name: string; ms: number; percentOfBusy: number }>;
  /** Time with the function anywhere on the stack (each function once per sample). */
  inclusive: Array<{ name: string; ms: number; percentOfBusy: number }>;
}

function functionName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/build\/index\.js.*$/, "build/index.js")}:${lineNumber + 1}` : "";
  return `${functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
}

/**
 * Self time by part and the busiest functions, in ms and percent of the busy (non-idle) time,
 * largest first. `window` (µs of CLOCK_MONOTONIC, the clock of both V8's profile timestamps and
 * `process.hrtime`) keeps only the samples taken while the load ran, leaving out start-up.
 */
export function summarizeProfile(file: string, window?: { fromUs: number; toUs: number }, top = 12): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (window && (time < window.fromUs || time > window.toUs)) return;
    const node = byId.get(id);
    if (!node) return;
    const ms = delta / 1000;
    const part = partOf(node);
    totals.set(part, (totals.get(part) ?? 0) + ms);
    if (part !== "idle") {
      const name = functionName(node);
      functions.set(name, (functions.get(name) ?? 0) + ms);
      const onStack = new Set<string>();
      for (let at: number | undefined = node.id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at);
        if (frame && frame.callFrame.url) onStack.add(functionName(frame));
      }
      for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + ms);
    }
    total += ms;
  });
  const busy = total - (totals.get("idle") ?? 0);
  const rank = (entries: Map<string, number>, count = top) =>
    [...entries]
      .filter(([name]) => name !== "idle")
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), percentOfBusy: Math.round((ms / busy) * 1000) / 10 }));
  return {
    busyMs: Math.round(busy),
    totalMs: Math.round(total),
    parts: rank(totals).map(({ name, ms, percentOfBusy }) => ({ part: name, ms, percentOfBusy })),
    functions: rank(functions),
    // Frames under 90 % of the busy time: below the event loop's and the server's own entry points.
    inclusive: rank(new Map([...inclusive].filter(([, ms]) => ms < busy * 0.9)), top * 2),
  };
}

/** The largest .cpuprofile in a folder: a process writes one per thread on exit, the main thread's is the big one. */
export function largestProfile(dir: string): string | undefined {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  return files[0];
}
