import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtEntry } from "./built-server";
import { freePort } from "./free-port";

/**
 * Starts the real app (`build/server/start.js`, what `npm start` and the production image run) as a
 * child process on a free loopback port, so HTTP tests exercise the same server, middleware and build
 * as production. Needs `npm run build` first (the test command does it).
 */
export interface AppServer {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `root`: the checkout to serve (default this one; the benchmarks compare two). */
export async function startAppServer(env: Record<string, string>, options: { timeoutMs?: number; nodeArgs?: string[]; root?: string } = {}): Promise<AppServer> {
  const root = options.root ? path.resolve(options.root) : ROOT;
  const entry = builtEntry(root, "start");
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "aligner-app-"));
  let log = "";
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: "test",
      NODE_ENV: "production",
      QUEUE_IN_PROCESS: "false",
      // One process unless a test asks for more: the suites count and kill processes themselves.
      WEB_CONCURRENCY: "1",
      // Each market's public origin on this port (DESIGN §3), and the test hosts the app answers.
      PUBLIC_URL_DOMESTIC: `http://127.0.0.1:${port}`,
      PUBLIC_URL_INTERNATIONAL: `http://localhost:${port}`,
      ALLOWED_HOSTS: "aligners.com,aligners.ru",
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (log += chunk));
  child.stderr?.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app did not become healthy:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    pid: child.pid!,
    dataDir,
    output: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** A tiny cookie jar for fetch-based HTTP tests. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  set(name: string, value: string) {
    this.cookies.set(name, value);
  }
}

/** fetch as a browser on the site would: same-origin Origin header, no automatic redirects, cookies kept. */
export function browserFetch(app: { url: string }, jar = new CookieJar()) {
  return {
    jar,
    app,
    async request(pathname: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
      const method = init.method ?? (init.form ? "POST" : "GET");
      const headers: Record<string, string> = { Cookie: jar.header(), ...(method === "GET" ? {} : { Origin: app.url }), ...init.headers };
      const response = await fetch(`${app.url}${pathname}`, {
        method,
        headers,
        body: init.form ? new URLSearchParams(init.form) : undefined,
        redirect: "manual",
      });
      jar.store(response);
      return response;
    },
  };
}
