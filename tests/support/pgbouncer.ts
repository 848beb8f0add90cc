import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, waitForPort } from "./free-port";

/**
 * Debian's PgBouncer in transaction pooling mode in front of the test PostgreSQL, the connection
 * pooler a deployment adds once its app processes need more connections than the server allows
 * (docs/decisions/028-scale-out.md). The test command installs it when missing.
 */
export interface TestPgBouncer {
  /** `databaseUrl` with its host and port replaced by the pooler's. */
  via(databaseUrl: string): string;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

const PGBOUNCER = "/usr/sbin/pgbouncer";

export async function startPgBouncer(serverUrl: string, options: { poolSize?: number } = {}): Promise<TestPgBouncer> {
  if (!fs.existsSync(PGBOUNCER)) throw new Error("PgBouncer is not installed: apt-get install -y pgbouncer");
  const server = new URL(serverUrl);
  const port = await freePort();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "pgbouncer-"));
  const user = decodeURIComponent(server.username || "postgres");
  await fsp.writeFile(path.join(dir, "users.txt"), `"${user}" ""\n`);
  await fsp.writeFile(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 8}`,
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  await fsp.chmod(dir, 0o777);
  // PgBouncer refuses to run as root; as root it is started as the postgres user.
  const args = process.getuid?.() === 0 ? ["-u", "postgres", path.join(dir, "pgbouncer.ini")] : [path.join(dir, "pgbouncer.ini")];
  let log = "";
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (log += chunk));
  child.stderr?.on("data", (chunk) => (log += chunk));
  await waitForPort("127.0.0.1", port, 10_000, () => child.exitCode === null).catch((error: Error) => {
    throw new Error(`${error.message}\n${log}`);
  });
  return {
    port,
    via(databaseUrl: string) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    output: () => log + (fs.existsSync(path.join(dir, "pgbouncer.log")) ? fs.readFileSync(path.join(dir, "pgbouncer.log"), "utf8") : ""),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
