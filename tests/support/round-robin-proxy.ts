import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small HTTP load balancer for scale-out tests: each request goes to the next app process in turn,
 * counted per client (the X-Forwarded-For a test browser sends, else one shared counter), so that
 * consecutive requests of one clinic land on different processes. Like a platform's proxy, it
 * retries on another process only when a connection was refused (a stopped process), never after a
 * request reached one; a request cut off inside a process answers 502.
 */
export interface RoundRobinProxy {
  url: string;
  port: number;
  /** The app ports, in turn order; may be set after the proxy starts (the apps need its URL). */
  backends: number[];
  /** Requests answered per backend port. */
  served: Map<number, number>;
  /** Per client key, the backend port of each of its requests in order. */
  trail: Map<string, number[]>;
  /** Backends found stopped (connection refused). */
  down: Set<number>;
  stop(): Promise<void>;
}

export async function startRoundRobinProxy(backends: number[] = []): Promise<RoundRobinProxy> {
  const counters = new Map<string, number>();
  const proxy: Omit<RoundRobinProxy, "url" | "port" | "stop"> = { backends, served: new Map(), trail: new Map(), down: new Set() };

  const pick = (key: string, skip: Set<number>): number | null => {
    const alive = proxy.backends.filter((port) => !proxy.down.has(port) && !skip.has(port));
    if (alive.length === 0) return null;
    const turn = counters.get(key) ?? 0;
    counters.set(key, turn + 1);
    return alive[turn % alive.length]!;
  };

  const forward = (port: number, request: http.IncomingMessage, body: Buffer): Promise<http.IncomingMessage> =>
    new Promise((resolve, reject) => {
      // A new connection each time (no pooled socket to a process that has died since).
      const outgoing = http.request({ host: "127.0.0.1", port, method: request.method, path: request.url, headers: request.headers, agent: false }, resolve);
      outgoing.on("error", reject);
      outgoing.end(body);
    });

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const key = String(request.headers["x-forwarded-for"] ?? "shared");
    const tried = new Set<number>();
    for (;;) {
      const port = pick(key, tried);
      if (port === null) {
        response.writeHead(502, { "Content-Type": "text/plain" }).end("no app process answers\n");
        return;
      }
      tried.add(port);
      try {
        const answer = await forward(port, request, body);
        proxy.served.set(port, (proxy.served.get(port) ?? 0) + 1);
        proxy.trail.set(key, [...(proxy.trail.get(key) ?? []), port]);
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
        answer.on("error", () => response.destroy());
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") {
          proxy.down.add(port);
          continue;
        }
        if (!response.headersSent) response.writeHead(502, { "Content-Type": "text/plain" }).end("the app process went away\n");
        return;
      }
    }
  });
  // An idle client connection is kept longer than any test client keeps it (undici: 4 s), as a
  // platform's proxy does: the client always closes first. At 1 s the proxy closed connections that a
  // client on a loaded machine, its timers late, was already reusing — a request with no answer.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ...proxy,
    get backends() {
      return proxy.backends;
    },
    set backends(value: number[]) {
      proxy.backends = value;
    },
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
