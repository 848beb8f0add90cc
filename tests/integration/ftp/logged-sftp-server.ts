import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { AppConfig } from "~/modules/config/config.server";
import { freePort, waitForPort } from "../../support/free-port";

const run = promisify(execFile);
const SSHD = "/usr/sbin/sshd";
const SFTP_SERVER = "/usr/lib/openssh/sftp-server";

/**
 * An OpenSSH server like `startSftpServer()` (tests/support/sftp-server.ts), but whose SFTP
 * subsystem is OpenSSH's own `sftp-server` logging every request to a file, so a test can count
 * what really reached the server: each file opened for writing, each rename.
 */
export interface LoggedSftpServer {
  url: string;
  port: number;
  user: string;
  privateKeyPath: string;
  root: string;
  fileServer: Extract<AppConfig["fileServer"], { kind: "sftp" }>;
  /** The server's log lines so far. */
  log(): string[];
  /** Files opened for writing (`open "<path>" flags WRITE,...`), by path. */
  writes(): string[];
  /** Renames (`posix-rename old "<from>" new "<to>"` or `rename ...`), as [from, to]. */
  renames(): Array<[string, string]>;
  stop(): Promise<void>;
}

export async function startLoggedSftpServer(): Promise<LoggedSftpServer> {
  if (!fs.existsSync(SSHD) || !fs.existsSync(SFTP_SERVER)) throw new Error("OpenSSH server not installed: apt-get install -y openssh-server");
  const user = os.userInfo().username;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "sshd-logged-"));
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "sftp-logged-root-"));
  const hostKey = path.join(dir, "host_ed25519");
  const clientKey = path.join(dir, "client_ed25519");
  const logFile = path.join(dir, "sftp.log");
  const wrapper = path.join(dir, "sftp-logged.sh");

  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rm(root, { recursive: true, force: true });
  };

  try {
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey]);
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", clientKey]);
    await fsp.copyFile(`${clientKey}.pub`, path.join(dir, "authorized_keys"));
    await fsp.mkdir("/run/sshd", { recursive: true, mode: 0o755 }).catch(() => {});
    // sftp-server -e logs to stderr, which sshd would send to the client: send it to our file instead.
    await fsp.writeFile(wrapper, `#!/bin/sh\nexec ${SFTP_SERVER} -e -l INFO -u 000 2>>${logFile}\n`, { mode: 0o755 });
    await fsp.writeFile(logFile, "");

    const port = await freePort();
    const settings = [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
      "UsePAM no",
      "StrictModes no",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      `AllowUsers ${user}`,
      ...(process.getuid?.() === 0 ? ["PermitRootLogin prohibit-password"] : []),
      `Subsystem sftp ${wrapper}`,
      "LogLevel ERROR",
      "MaxSessions 50",
      "MaxStartups 50",
    ];
    const configFile = path.join(dir, "sshd_config");
    await fsp.writeFile(configFile, `${settings.join("\n")}\n`);
    const started = spawn(SSHD, ["-D", "-e", "-f", configFile], { stdio: ["ignore", "ignore", "pipe"] });
    child = started;
    let stderr = "";
    started.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    try {
      await waitForPort("127.0.0.1", port, 10_000, () => started.exitCode === null && started.signalCode === null);
    } catch (error) {
      throw new Error(`sshd did not start (${(error as Error).message}): ${stderr.trim() || "no output"}`);
    }

    const url = `sftp://${encodeURIComponent(user)}@127.0.0.1:${port}`;
    const log = () => fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    return {
      url,
      port,
      user,
      privateKeyPath: clientKey,
      root,
      fileServer: { kind: "sftp", url, privateKeyPath: clientKey, root },
      log,
      writes: () =>
        log()
          .map((line) => /open "(.*)" flags (\S+)/.exec(line))
          .filter((match): match is RegExpExecArray => match !== null && match[2]!.includes("WRITE"))
          .map((match) => match[1]!),
      renames: () =>
        log()
          .map((line) => /rename old "(.*)" new "(.*)"/.exec(line))
          .filter((match): match is RegExpExecArray => match !== null)
          .map((match) => [match[1]!, match[2]!] as [string, string]),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
