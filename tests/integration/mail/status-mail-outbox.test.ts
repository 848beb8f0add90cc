import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailer } from "~/modules/mail/mailer.server";
import { createSmtpMailer } from "~/modules/mail/smtp-mailer.server";
import { instruments } from "~/modules/metrics/count.server";
import { sendStatusMails, STATUS_MAIL_RETRY } from "~/modules/notifications/status-mail.server";
import { buildOrderIn } from "../../support/builders";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { freePort } from "../../support/free-port";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink";

/**
 * Every status mail goes out (issue 45, ADR 075): a change is marked notified only once the mail
 * server accepted its mail. A worker killed between the acceptance and the record leaves its claim
 * to run out, and the next run sends the mail again (at least once); with no crash it goes exactly
 * once; a mail server that refuses is tried again with a backoff, and given up after the last attempt.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("status mails from the outbox", () => {
  let t: TestDatabase;
  let sink: SmtpSink;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink?.stop();
    await t?.drop();
  });
  beforeEach(async () => {
    await t.db.deleteFrom("orders").execute();
    sink.messages.length = 0;
  });

  const smtp = () => createSmtpMailer({ kind: "smtp", url: sink.url, from: "orders@aligner.test" });
  const run = (mailer = smtp()) => sendStatusMails(t.db, { mailer, publicUrl: "https://aligners.test" });
  const paidChange = (orderId: string) =>
    t.db.selectFrom("order_status_history").selectAll().where("order_id", "=", orderId).where("to_status", "=", "paid").executeTakeFirstOrThrow();
  /** Moves the clock past the change's claim or backoff. */
  const dueNow = (id: string) => sql`update order_status_history set mail_due_at = now() - interval '1 second' where id = ${id}`.execute(t.db);
  const mailsTo = (address: string) => sink.messages.filter((mail) => mail.envelope.to.includes(address));

  it("sends a paid order's mail exactly once when nothing crashes", async () => {
    const order = await buildOrderIn(t.db, "paid");
    expect(await run()).toMatchObject({ sent: 1, failed: 0, retried: 0 });
    const change = await paidChange(order.id);
    expect(change.notified_at).not.toBeNull();
    expect(change.mail_attempts).toBe(1);
    await dueNow(change.id);
    expect((await run()).sent).toBe(0);
    expect(mailsTo(order.email!)).toHaveLength(1);
  });

  it("sends the mail again after a worker is killed between the server's acceptance and the record", async () => {
    const order = await buildOrderIn(t.db, "paid");
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/status-mail-crash.mts"], {
      cwd: ROOT,
      env: { ...process.env, APP_ENV: "test", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "mail-crash-")), DATABASE_URL: t.url, SMTP_URL: sink.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    expect(exit, output).toBe("SIGKILL");
    expect(output).toContain("accepted");
    expect(mailsTo(order.email!)).toHaveLength(1);

    // The change was never recorded as sent: it is held by the dead worker's claim until that runs out.
    const held = await paidChange(order.id);
    expect(held.notified_at).toBeNull();
    expect(new Date(held.mail_due_at!).getTime()).toBeGreaterThan(Date.now());
    expect((await run()).sent).toBe(0);

    await dueNow(held.id);
    expect((await run()).sent).toBe(1);
    expect(mailsTo(order.email!)).toHaveLength(2);
    expect((await paidChange(order.id)).notified_at).not.toBeNull();
  });

  it("tries a refused mail again after a backoff, and after the last attempt marks it failed", async () => {
    const order = await buildOrderIn(t.db, "paid");
    // The app's mailer, counted for the metrics: every refusal is a failed mail there (the MailsFailing alert, ADR 073).
    const closed = createMailer({ mail: { kind: "smtp", url: `smtp://127.0.0.1:${await freePort()}`, from: "orders@aligner.test" } });
    const failedMails = async () => (await instruments().mails.get()).values.find((sample) => sample.labels.result === "failed")?.value ?? 0;
    const failedBefore = await failedMails();
    expect(await run(closed)).toMatchObject({ sent: 0, retried: 1 });
    const first = await paidChange(order.id);
    expect(first).toMatchObject({ notified_at: null, mail_attempts: 1, mail_failed_at: null });
    expect(first.mail_error).toBeTruthy();
    // Due again only after the backoff.
    expect(new Date(first.mail_due_at!).getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect((await run(closed)).retried).toBe(0);

    for (let attempt = 2; attempt <= STATUS_MAIL_RETRY.attempts; attempt++) {
      await dueNow(first.id);
      await run(closed);
    }
    const given = await paidChange(order.id);
    expect(given.mail_attempts).toBe(STATUS_MAIL_RETRY.attempts);
    expect(given.mail_failed_at).not.toBeNull();
    expect(given.notified_at).toBeNull();
    expect((await failedMails()) - failedBefore).toBe(STATUS_MAIL_RETRY.attempts);
    // Given up: never tried again, even when the server is back.
    await dueNow(first.id);
    expect((await run()).sent).toBe(0);
    expect(mailsTo(order.email!)).toHaveLength(0);
  });

  it("a refusal followed by a working server delivers the mail on the next due run", async () => {
    const order = await buildOrderIn(t.db, "paid");
    const closed = createSmtpMailer({ kind: "smtp", url: `smtp://127.0.0.1:${await freePort()}`, from: "orders@aligner.test" });
    await run(closed);
    await dueNow((await paidChange(order.id)).id);
    expect((await run()).sent).toBe(1);
    expect(mailsTo(order.email!)).toHaveLength(1);
  });
});
