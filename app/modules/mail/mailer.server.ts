import type { AppConfig } from "~/modules/config/config.server";
import { createOutboxMailer } from "./outbox-mailer.server";
import { createSmtpMailer } from "./smtp-mailer.server";
import type { Mailer } from "./types";

export type { MailMessage, Mailer } from "./types";
export { recipientsOf } from "./types";

export function createMailer(config: Pick<AppConfig, "mail">): Mailer {
  const mail = config.mail;
  switch (mail.kind) {
    case "outbox":
      return createOutboxMailer(mail);
    case "smtp":
      return createSmtpMailer(mail);
  }
}
