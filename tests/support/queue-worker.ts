import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { builtEntry } from "./built-server";

/**
 * The queue worker (`build/server/queue-work.js`, the fly `worker` group's command) as a child process (the fly `worker` group), for tests with real workers:
 * resolves once it runs; `completed()` lists the job ids it logged as delivered.
 */
export interface QueueWorker {
  child: ChildProcess;
  output(): string;
  completed(): string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function startQueueWorker(env: Record<string, string>, args: string[] = [], onExit?: (child: ChildProcess) => void): Promise<QueueWorker> {
  const child = spawn(process.execPath, [builtEntry(ROOT, "queue-work"), "--poll-ms", "100", "--housekeeping-ms", "600000", ...args], {
    cwd: ROOT,
    env: { ...process.env, APP_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      onExit?.(child);
      resolve({ code, signal });
    }),
  );
  const deadline = Date.now() + 30_000;
  while (!output.includes("queue worker running") && child.exitCode === null) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the worker did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${output}`);
  return {
    child,
    output: () => output,
    completed: () => [...output.matchAll(/ftp transfer job=(\S+) .*outcome=completed/g)].map((match) => match[1]!),
    exited,
  };
}
