import type { AppConfig } from "~/modules/config/config.server";
import { createOutboxMailer } from "./outbox-mailer.server";
import { createSmtpMailer } from "./smtp-mailer.server";

export interface MailMessage {
  to: string | string[];
  subject: string;
  /** Always required: the plain-text part is what the outbox log and text-only clients show. */
  text: string;
  html?: string;
}

/** Sends mail as `config.mail.from`: through SMTP in production, into an outbox folder in development. */
export interface Mailer {
  readonly kind: "outbox" | "smtp";
  /** Resolves with the Message-ID once the message is accepted (or written); rejects otherwise. */
  send(message: MailMessage): Promise<{ id: string }>;
}

export function createMailer(config: Pick<AppConfig, "mail">): Mailer {
  const mail = config.mail;
  switch (mail.kind) {
    case "outbox":
      return createOutboxMailer(mail);
    case "smtp":
      return createSmtpMailer(mail);
  }
}

export function recipientsOf(message: Pick<MailMessage, "to">): string {
  return Array.isArray(message.to) ? message.to.join(", ") : message.to;
}
