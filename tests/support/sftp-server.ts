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
  stop(): Promise<void>;
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
 * A private OpenSSH server on a free loopback port: its own config, host key and authorized
 * key, no PAM, internal-sftp. Throws when OpenSSH is not installed — SFTP tests never skip.
 */
export async function startSftpServer(): Promise<TestSftpServer> {
  if (!fs.existsSync(SSHD)) throw new Error("OpenSSH server not installed: apt-get install -y openssh-server");
  const user = os.userInfo().username;
  await assertUsableAccount(user);

  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "sshd-"));
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "sftp-root-"));
  const hostKey = path.join(dir, "host_ed25519");
  const clientKey = path.join(dir, "client_ed25519");
  const authorizedKeys = path.join(dir, "authorized_keys");
  const configFile = path.join(dir, "sshd_config");

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
      "Subsystem sftp internal-sftp -u 000",
      "LogLevel ERROR",
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
    return {
      url,
      host: "127.0.0.1",
      port,
      user,
      privateKeyPath: clientKey,
      root,
      fileServer: { kind: "sftp", url, privateKeyPath: clientKey, root },
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
