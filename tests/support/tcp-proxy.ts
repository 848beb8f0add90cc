import net from "node:net";

/**
 * A TCP proxy for testing slow and broken networks: put it between a client and a server and
 * throttle, delay or cut the bytes flowing through.
 *
 * Directions: "upstream" is client → target, "downstream" is target → client.
 * - bytesPerSecond: one shared budget per direction for all connections, like a single slow link.
 * - latencyMs: every chunk is held this long before it is forwarded (one-way delay per direction).
 * - cutAfterBytes: each connection is cut (both sockets reset) as soon as it has forwarded this
 *   many bytes in that direction — so the receiving side gets at most that many bytes.
 */

export type Direction = "upstream" | "downstream";

export interface ProxyLimits {
  bytesPerSecond?: number;
  latencyMs?: number;
  cutAfterBytes?: Partial<Record<Direction, number>>;
}

export interface TcpProxyOptions extends ProxyLimits {
  target: { host: string; port: number };
}

export interface TcpProxyStats {
  /** Connections accepted since start. */
  connections: number;
  /** Connections still open. */
  active: number;
  /** Bytes forwarded client → target. */
  upstreamBytes: number;
  /** Bytes forwarded target → client. */
  downstreamBytes: number;
  /** Connections cut by a byte limit or cutAll(). */
  cuts: number;
  /** Slices held back to keep bytesPerSecond (both directions): 0 while no rate is set. */
  heldForRate: number;
}

export interface TcpProxy {
  host: string;
  port: number;
  /** `url` with its host and port replaced by the proxy's ("sftp://u@127.0.0.1:2222" → "sftp://u@127.0.0.1:<proxy>"). */
  via(url: string): string;
  /** Replaces all limits (omitted ones are lifted); applies to open connections from their next chunk. */
  setLimits(limits: ProxyLimits): void;
  /** Resets every open connection now. New connections are still accepted. */
  cutAll(): void;
  /**
   * Resets every open connection once, the moment `bytes` more have been forwarded in `direction`
   * (all connections together), then forwards as before; resolves then. A cut at an exact point of a
   * transfer, whatever the test process's own pace on a busy machine.
   */
  cutAllOnceAfter(direction: Direction, bytes: number): Promise<void>;
  /**
   * Takes the target "down" for new connections: "refuse" resets each one at once (a stopped
   * server), "blackhole" accepts it and never answers (a lost network); false forwards again.
   * Open connections are not touched (call cutAll() as well for a full outage).
   */
  setDown(mode: "refuse" | "blackhole" | false): void;
  stats(): TcpProxyStats;
  stop(): Promise<void>;
}

/** The stats' byte counter of a direction. */
const counterOf = (direction: Direction) => (direction === "upstream" ? "upstreamBytes" : "downstreamBytes");

// Pause reading a socket while this much is waiting to be forwarded (back-pressure through the proxy).
const HIGH_WATER = 256 * 1024;
const LOW_WATER = 64 * 1024;
const MAX_SLICE = 16 * 1024;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The shared bandwidth of one direction: hands out send times so the average rate holds. */
class Link {
  private nextFree = 0;

  /** Waits until `bytes` may be sent at `bytesPerSecond`; true when it had to wait. */
  async take(bytes: number, bytesPerSecond: number): Promise<boolean> {
    const now = performance.now();
    const start = Math.max(now, this.nextFree);
    this.nextFree = start + (bytes * 1000) / bytesPerSecond;
    if (start - now < 1) return false;
    await sleep(start - now);
    return true;
  }
}

class Connection {
  closed = false;

  constructor(
    readonly client: net.Socket,
    readonly target: net.Socket,
    private readonly onCut: () => void,
  ) {}

  /** Aborts both sides with a reset, as a crashed network or peer would. */
  cut(): void {
    if (this.closed) return;
    this.onCut();
    this.destroy(true);
  }

  destroy(reset = false): void {
    this.closed = true;
    for (const socket of [this.client, this.target]) {
      if (socket.destroyed) continue;
      if (reset) {
        try {
          socket.resetAndDestroy();
          continue;
        } catch {
          // not connected yet: a plain destroy is all we can do
        }
      }
      socket.destroy();
    }
  }
}

export async function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  let limits: ProxyLimits = { bytesPerSecond: options.bytesPerSecond, latencyMs: options.latencyMs, cutAfterBytes: options.cutAfterBytes };
  const links: Record<Direction, Link> = { upstream: new Link(), downstream: new Link() };
  const counters = { connections: 0, upstreamBytes: 0, downstreamBytes: 0, cuts: 0, heldForRate: 0 };
  const open = new Set<Connection>();
  /** cutAllOnceAfter's armed cut: the counter's value to cut at, and who waits for it. */
  let oneCut: { direction: Direction; at: number; done: () => void } | null = null;
  let down: "refuse" | "blackhole" | false = false;
  const blackholed = new Set<net.Socket>();

  /** Forwards one direction of one connection through latency, throttle and cut limit. */
  function forward(connection: Connection, from: net.Socket, to: net.Socket, direction: Direction): void {
    const queue: Array<{ data: Buffer; readyAt: number }> = [];
    let queuedBytes = 0;
    let forwarded = 0;
    let sourceEnded = false;
    let pumping = false;

    const waitForDrain = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          to.off("drain", done);
          to.off("close", done);
          resolve();
        };
        to.on("drain", done);
        to.on("close", done);
      });

    async function pump(): Promise<void> {
      if (pumping) return;
      pumping = true;
      try {
        while (!connection.closed && queue.length > 0) {
          const item = queue[0];
          const delay = item.readyAt - performance.now();
          if (delay >= 1) await sleep(delay);
          if (connection.closed) return;

          const { bytesPerSecond } = limits;
          const cutAfter = limits.cutAfterBytes?.[direction];
          let size = item.data.length;
          // Small slices keep a throttled stream smooth instead of bursty.
          if (bytesPerSecond) size = Math.min(size, MAX_SLICE, Math.max(1, Math.floor(bytesPerSecond / 20)));
          if (cutAfter !== undefined) {
            if (forwarded >= cutAfter) return connection.cut();
            size = Math.min(size, cutAfter - forwarded);
          }
          const counter = counterOf(direction);
          if (oneCut?.direction === direction) size = Math.max(1, Math.min(size, oneCut.at - counters[counter]));
          if (bytesPerSecond && (await links[direction].take(size, bytesPerSecond))) counters.heldForRate++;
          if (connection.closed) return;

          const slice = item.data.subarray(0, size);
          item.data = item.data.subarray(size);
          if (item.data.length === 0) queue.shift();
          queuedBytes -= size;
          forwarded += size;
          counters[counter] += size;
          const flushed = to.write(slice);
          if (oneCut?.direction === direction && counters[counter] >= oneCut.at) {
            const { done } = oneCut;
            oneCut = null;
            for (const each of open) each.cut();
            done();
            return;
          }

          if (cutAfter !== undefined && forwarded >= cutAfter) return connection.cut();
          if (!flushed) await waitForDrain();
          if (queuedBytes < LOW_WATER && from.isPaused() && !from.destroyed) from.resume();
        }
        if (!connection.closed && sourceEnded && queue.length === 0) to.end();
      } finally {
        pumping = false;
      }
    }

    from.on("data", (chunk: Buffer) => {
      queue.push({ data: chunk, readyAt: performance.now() + (limits.latencyMs ?? 0) });
      queuedBytes += chunk.length;
      if (queuedBytes >= HIGH_WATER) from.pause();
      void pump();
    });
    from.on("end", () => {
      sourceEnded = true;
      void pump();
    });
  }

  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    counters.connections++;
    if (down === "refuse") {
      client.on("error", () => {});
      client.resetAndDestroy();
      return;
    }
    if (down === "blackhole") {
      client.on("error", () => {});
      client.resume(); // read and drop
      blackholed.add(client);
      client.on("close", () => blackholed.delete(client));
      return;
    }
    const target = net.connect({ host: options.target.host, port: options.target.port, allowHalfOpen: true });
    const connection = new Connection(client, target, () => counters.cuts++);
    open.add(connection);

    // Any error on either side ends both; a clean close of both sides ends the connection.
    const fail = () => connection.destroy();
    client.on("error", fail);
    target.on("error", fail);
    const closed = () => {
      if (client.destroyed && target.destroyed) {
        connection.closed = true;
        open.delete(connection);
      } else if (client.destroyed) {
        target.destroy(); // the client is gone: nobody reads what the target would send
      }
    };
    client.on("close", closed);
    target.on("close", closed);

    forward(connection, client, target, "upstream");
    forward(connection, target, client, "downstream");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    host: "127.0.0.1",
    port,
    via(url) {
      const rewritten = new URL(url);
      rewritten.hostname = "127.0.0.1";
      rewritten.port = String(port);
      return rewritten.toString();
    },
    setLimits(next) {
      limits = { ...next };
    },
    cutAll() {
      for (const connection of open) connection.cut();
    },
    cutAllOnceAfter(direction, bytes) {
      return new Promise<void>((done) => {
        oneCut = { direction, at: counters[counterOf(direction)] + bytes, done };
      });
    },
    setDown(mode) {
      down = mode;
      if (!mode) for (const socket of blackholed) socket.destroy();
    },
    stats() {
      return { ...counters, active: open.size };
    },
    async stop() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of open) connection.destroy();
      for (const socket of blackholed) socket.destroy();
      await closing;
    },
  };
}
