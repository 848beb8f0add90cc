/**
 * A worker that dies between sending a status mail and recording it (ADR 075): runs one pass of
 * the status mails against DATABASE_URL through SMTP_URL, and is killed (SIGKILL, no cleanup) the
 * moment the mail server has accepted the first mail, before the change is marked notified.
 *
 *   node --import tsx tests/support/status-mail-crash.mts
 */
import { openDatabase } from "~/modules/db/db.server";
import { createSmtpMailer } from "~/modules/mail/smtp-mailer.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";

const db = await openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! }, { poolSize: 1 });
const smtp = createSmtpMailer({ kind: "smtp", url: process.env.SMTP_URL!, from: "orders@aligner.test" });
await sendStatusMails(db, {
  publicUrl: "https://aligners.test",
  mailer: {
    kind: "smtp",
    async send(message) {
      const accepted = await smtp.send(message);
      console.log(`accepted ${accepted.id}`);
      process.kill(process.pid, "SIGKILL");
      return accepted;
    },
  },
});
console.log("not killed");
await db.destroy();
