import net from "node:net";

/** A port free on 127.0.0.1 right now, for servers that cannot listen on port 0 themselves. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether host:port accepts a TCP connection right now. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Resolves once host:port accepts TCP connections; rejects after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number, stillAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await accepts(host, port)) return;
    if (!stillAlive()) throw new Error(`Nothing is listening on ${host}:${port}: the server exited`);
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${host}:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves, with the moment (performance.now()), once host:port refuses TCP connections; rejects after `timeoutMs`. */
export async function waitForPortClosed(host: string, port: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await accepts(host, port))) return performance.now();
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${host}:${port} to close`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
