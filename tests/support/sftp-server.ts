import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { AppConfig } from "~/modules/config/config.server";
import { freePort, waitForPort } from "./free-port";

const run = promisify(execFile);

const SSHD = "/usr/sbin/sshd";
const SFTP_SERVER = "/usr/lib/openssh/sftp-server";
const SSH_KEYGEN = "ssh-keygen";

export interface TestSftpServer {
  /** sftp://<user>@127.0.0.1:<port> — authenticate with `privateKeyPath`. */
  url: string;
  host: string;
  port: number;
  user: string;
  privateKeyPath: string;
  /** A fresh, empty folder (absolute path, same on both sides) for the test's remote files. */
  root: string;
  /** Ready for `createFileServer({ fileServer })`. */
  fileServer: Extract<AppConfig["fileServer"], { kind: "sftp" }>;
  /** The SFTP requests logged so far (with `logRequests`; else empty). */
  log(): string[];
  /** Files opened for writing (`open "<path>" flags WRITE,...`), by path (with `logRequests`). */
  writes(): string[];
  /** Renames (`posix-rename old "<from>" new "<to>"` or `rename ...`), as [from, to] (with `logRequests`). */
  renames(): Array<[string, string]>;
  stop(): Promise<void>;
}

export interface SftpServerOptions {
  /**
   * Serve SFTP with OpenSSH's own `sftp-server`, logging every request to a file, so a test can
   * count what really reached the server (each file opened for writing, each rename); otherwise
   * sshd's built-in `internal-sftp`.
   */
  logRequests?: boolean;
}

async function assertUsableAccount(user: string): Promise<void> {
  // With UsePAM no, OpenSSH refuses even key logins to an account whose password is locked ("!").
  let shadow: string;
  try {
    shadow = await fsp.readFile("/etc/shadow", "utf8");
  } catch {
    return; // not readable as this user: let sshd decide
  }
  const entry = shadow.split("\n").find((line) => line.startsWith(`${user}:`));
  const password = entry?.split(":")[1] ?? "";
  if (password.startsWith("!")) {
    throw new Error(`Account ${user} is locked, so sshd refuses key logins: run usermod -p '*' ${user}`);
  }
}

/**
 * The SFTP test server: a private OpenSSH server on a free loopback port, with its own config, host
 * key and authorized key, no PAM. Throws when OpenSSH is not installed — SFTP tests never skip.
 */
export async function startSftpServer(options: SftpServerOptions = {}): Promise<TestSftpServer> {
  if (!fs.existsSync(SSHD) || (options.logRequests && !fs.existsSync(SFTP_SERVER))) throw new Error("OpenSSH server not installed: apt-get install -y openssh-server");
  const user = os.userInfo().username;
  await assertUsableAccount(user);

  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "sshd-"));
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "sftp-root-"));
  const hostKey = path.join(dir, "host_ed25519");
  const clientKey = path.join(dir, "client_ed25519");
  const authorizedKeys = path.join(dir, "authorized_keys");
  const configFile = path.join(dir, "sshd_config");
  const logFile = path.join(dir, "sftp.log");
  const wrapper = path.join(dir, "sftp-logged.sh");

  let child: ChildProcess | undefined;
  const cleanUp = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rm(root, { recursive: true, force: true });
  };

  try {
    await run(SSH_KEYGEN, ["-q", "-t", "ed25519", "-N", "", "-C", "test-host", "-f", hostKey]);
    await run(SSH_KEYGEN, ["-q", "-t", "ed25519", "-N", "", "-C", "test-client", "-f", clientKey]);
    await fsp.copyFile(`${clientKey}.pub`, authorizedKeys);
    // sshd's privilege separation needs this folder; it is missing until the system service first ran.
    await fsp.mkdir("/run/sshd", { recursive: true, mode: 0o755 }).catch(() => {});
    if (options.logRequests) {
      // sftp-server -e logs to stderr, which sshd would send to the client: send it to our file instead.
      await fsp.writeFile(wrapper, `#!/bin/sh\nexec ${SFTP_SERVER} -e -l INFO -u 000 2>>${logFile}\n`, { mode: 0o755 });
      await fsp.writeFile(logFile, "");
    }

    const port = await freePort();
    const settings = [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      "UsePAM no",
      "StrictModes no",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      `AllowUsers ${user}`,
      ...(process.getuid?.() === 0 ? ["PermitRootLogin prohibit-password"] : []),
      // umask 000: files get exactly the mode the client asks for, so tests can check it.
      options.logRequests ? `Subsystem sftp ${wrapper}` : "Subsystem sftp internal-sftp -u 000",
      "LogLevel ERROR",
      // Room for the queue workers' parallel sessions.
      "MaxSessions 50",
      "MaxStartups 50",
    ];
    await fsp.writeFile(configFile, `${settings.join("\n")}\n`);

    // -D: stay in the foreground so we own the process; -e: log to stderr for error messages.
    // sshd must be started with an absolute path (it re-executes itself).
    const started = spawn(SSHD, ["-D", "-e", "-f", configFile], { stdio: ["ignore", "ignore", "pipe"] });
    child = started;
    let stderr = "";
    started.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    try {
      await waitForPort("127.0.0.1", port, 10_000, () => started.exitCode === null && started.signalCode === null);
    } catch (error) {
      throw new Error(`sshd did not start (${(error as Error).message}): ${stderr.trim() || "no output"}`);
    }

    const url = `sftp://${encodeURIComponent(user)}@127.0.0.1:${port}`;
    const log = () => (options.logRequests ? fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean) : []);
    return {
      url,
      host: "127.0.0.1",
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
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
