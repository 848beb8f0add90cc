/**
 * Pushes 200 files of 1 MiB through the production file server queue (claim, stream from folder
 * storage, temporary name, rename, mark completed) to a local OpenSSH server and, in the same run,
 * sends the same files with OpenSSH's own `sftp` in batch mode. Prints both throughputs and the
 * ratio for each round. Target (issue "file server hand-off"): queue ≥ 0.8 × sftp.
 *
 *   node --import tsx bench/ftp-queue.mts [--rounds 5] [--concurrency 3] [--files 200]
 *
 * Rounds alternate which side goes first; the median ratio is the figure (a busy machine makes single
 * rounds noisy). The queue side also reports the CPU time of this process (claims, storage reads,
 * the SSH client in JavaScript); the sftp side runs in its own processes.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL / DATABASE_URL, else the local trust-auth server) and
 * Debian's openssh-server and openssh-client, like the tests.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { sql } from "kysely";
import { createFileServer } from "../app/modules/ftp/file-server.server";
import { destinationPath } from "../app/modules/ftp/paths";
import { processQueue } from "../app/modules/ftp/transfer.server";
import { createOrder } from "../app/modules/orders/orders.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { startSftpServer } from "../tests/support/sftp-server";
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "3" },
    files: { type: "string", default: "200" },
  },
});
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const FILES = Number(values.files);
const FILE_BYTES = 1024 * 1024;
const ORDERS = 4;
const MiB = 1024 * 1024;

const run = promisify(execFile);

const database = await createBenchDatabase("ftp", { poolSize: 10 });
const { db } = database;

const sftp = await startSftpServer();
const storageDir = await fsp.mkdtemp(path.join(os.tmpdir(), "bench-ftp-storage-"));
const storage = createStorage({ storage: { kind: "folder", dir: storageDir }, buckets: { orders: "orders", logos: "logos" } });
await storage.ensureBuckets();
const queueRoot = path.join(sftp.root, "queue");
const sftpRoot = path.join(sftp.root, "sftp");

try {
  // 200 files of 1 MiB in ORDERS paid orders (one patient each), stored like the wizard stores them.
  const files: Array<{ key: string; code: string; folder: string }> = [];
  for (let o = 0; o < ORDERS; o++) {
    const order = await createOrder(db, { market: "domestic", currency: "rub", email: `bench-${o}@clinic.test`, fullName: "Bench", phone: "1", address: "Bench" }, { kind: "customer", label: "bench" });
    // Straight to paid: the benchmark measures the queue, not the state machine.
    await db.updateTable("orders").set({ status: "paid", paid_at: new Date(), total_cost: 1_000_000 }).where("id", "=", order.id).execute();
    const code = order.code;
    const patient = await db
      .insertInto("orders_patients")
      .values({ order_id: order.id, patient_name: `Bench ${o + 1}`, folder_name: `${code}_1`, matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" })
      .returning(["id", "folder_name"])
      .executeTakeFirstOrThrow();
    const entries = [];
    for (let f = 0; f < FILES / ORDERS; f++) {
      const key = `order_${order.id}/${patient.folder_name}/aligners/step_${String(f + 1).padStart(3, "0")}_${Date.now()}.stl`;
      await fsp.mkdir(path.dirname(path.join(storageDir, "orders", key)), { recursive: true });
      await fsp.writeFile(path.join(storageDir, "orders", key), randomBytes(FILE_BYTES));
      files.push({ key, code, folder: patient.folder_name });
      entries.push({
        order_id: order.id,
        patient_id: patient.id,
        file_path: key,
        original_name: path.basename(key),
        destination_path: destinationPath(queueRoot, code, patient.folder_name, "aligners"),
        order_prefix: code,
        patient_name: `Bench ${o + 1}`,
        file_type: "aligners" as const,
        file_size: FILE_BYTES,
      });
    }
    await db.insertInto("ftp_uploads_queue").values(entries).execute();
  }
  const totalBytes = files.length * FILE_BYTES;

  // The same files with OpenSSH's sftp: one batch, mkdir then put, into a mirror of the folders.
  const batchFile = path.join(storageDir, "batch.txt");
  const dirs = [...new Set(files.map((file) => path.join(sftpRoot, file.code, file.folder, "aligners")))];
  const batch = [`-mkdir ${sftpRoot}`, ...[...new Set(files.map((file) => path.join(sftpRoot, file.code)))].map((dir) => `-mkdir ${dir}`)];
  batch.push(...[...new Set(files.map((file) => path.join(sftpRoot, file.code, file.folder)))].map((dir) => `-mkdir ${dir}`));
  batch.push(...dirs.map((dir) => `-mkdir ${dir}`));
  batch.push(...files.map((file) => `put ${path.join(storageDir, "orders", file.key)} ${path.join(sftpRoot, file.code, file.folder, "aligners", path.basename(file.key))}`));
  await fsp.writeFile(batchFile, `${batch.join("\n")}\n`);

  async function viaSftp(): Promise<number> {
    await fsp.rm(sftpRoot, { recursive: true, force: true });
    const started = performance.now();
    await run("sftp", [
      "-q",
      "-b",
      batchFile,
      "-i",
      sftp.privateKeyPath,
      "-P",
      String(sftp.port),
      "-o",
      "StrictHostKeyChecking=no",
      "-o",
      "UserKnownHostsFile=/dev/null",
      "-o",
      "BatchMode=yes",
      "-o",
      "LogLevel=ERROR",
      `${sftp.user}@127.0.0.1`,
    ]);
    const seconds = (performance.now() - started) / 1000;
    const arrived = (fs.readdirSync(sftpRoot, { recursive: true }) as string[]).filter((name) => name.endsWith(".stl"));
    if (arrived.length !== files.length) throw new Error(`sftp delivered ${arrived.length} of ${files.length} files`);
    return seconds;
  }

  const fileServer = createFileServer({ fileServer: sftp.fileServer });
  const queueCpuSeconds: number[] = [];
  async function viaQueue(): Promise<number> {
    await fsp.rm(queueRoot, { recursive: true, force: true });
    await db.updateTable("ftp_uploads_queue").set({ status: "pending", attempts: 0, completed_at: null, next_attempt_at: sql`now()` }).execute();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const summary = await processQueue({ db, storage, fileServer, log: () => {} }, { leaseSeconds: 60, maxAttempts: 3, concurrency: CONCURRENCY });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    queueCpuSeconds.push((cpu.user + cpu.system) / 1e6);
    if (summary.completed !== files.length) throw new Error(`the queue delivered ${summary.completed} of ${files.length} files: ${JSON.stringify(summary.transfers.find((t) => t.error))}`);
    for (const file of files) {
      const remote = path.join(queueRoot, file.code, file.folder, "aligners", path.basename(file.key));
      if (fs.statSync(remote).size !== FILE_BYTES) throw new Error(`${remote} has the wrong size`);
    }
    return seconds;
  }

  console.log(`${files.length} files × 1 MiB (${totalBytes / MiB} MiB), queue concurrency ${CONCURRENCY}, ${os.cpus().length} cores, Node ${process.version}`);
  console.log("| round | queue (claim → storage → SFTP → completed) | OpenSSH sftp -b | ratio | queue process CPU |");
  console.log("|---|---|---|---|---|");
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so neither always gets the warm cache.
    const [queueSeconds, sftpSeconds] = round % 2 === 1 ? [await viaQueue(), await viaSftp()] : await (async () => {
      const s = await viaSftp();
      return [await viaQueue(), s];
    })();
    const queueRate = totalBytes / MiB / queueSeconds;
    const sftpRate = totalBytes / MiB / sftpSeconds;
    ratios.push(queueRate / sftpRate);
    console.log(
      `| ${round} | ${queueRate.toFixed(1)} MiB/s (${queueSeconds.toFixed(2)} s) | ${sftpRate.toFixed(1)} MiB/s (${sftpSeconds.toFixed(2)} s) | ${(queueRate / sftpRate).toFixed(2)} | ${queueCpuSeconds.at(-1)!.toFixed(2)} s |`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`median ratio ${median.toFixed(2)} (target ≥ 0.80: ${median >= 0.8 ? "met" : "not met"}); load average ${os.loadavg().map((load) => load.toFixed(1)).join(" ")}`);
  printResult({
    bench: "ftp-queue",
    figures: [
      {
        name: `queue / sftp -b, ${FILES} × 1 MiB (median of ${ROUNDS} rounds)`,
        figure: `${median.toFixed(2)} (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`,
        value: median,
        target: "≥ 0.8",
        met: median >= 0.8,
      },
    ],
    loadavg: os.loadavg(),
  });
} finally {
  await sftp.stop();
  await fsp.rm(storageDir, { recursive: true, force: true });
  await database.drop();
}
