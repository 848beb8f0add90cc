import type { AppConfig } from "~/modules/config/config.server";
import { createOutboxMailer } from "./outbox-mailer.server";
import { createSmtpMailer } from "./smtp-mailer.server";
import type { Mailer } from "./types";
import { countMail } from "~/modules/metrics/count.server";

export type { MailMessage, Mailer } from "./types";

export function createMailer(config: Pick<AppConfig, "mail"> & Partial<Pick<AppConfig, "env">>): Mailer {
  const mail = config.mail;
  switch (mail.kind) {
    case "outbox":
      // A developer signs in by the link in the log; tests and every other mode keep tokens out of logs.
      return counted(createOutboxMailer(mail, { showLinks: config.env === "development" }));
    case "smtp":
      return counted(createSmtpMailer(mail));
  }
}

/** Every mail sent or failed is counted for the metrics (ADR 073). */
function counted(mailer: Mailer): Mailer {
  return {
    kind: mailer.kind,
    async send(message) {
      try {
        const sent = await mailer.send(message);
        countMail("sent");
        return sent;
      } catch (error) {
        countMail("failed");
        throw error;
      }
    },
  };
}
