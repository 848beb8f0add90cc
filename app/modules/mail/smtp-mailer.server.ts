import nodemailer from "nodemailer";
import type { AppConfig } from "~/modules/config/config.server";
import type { Mailer } from "./types";

type SmtpConfig = Extract<AppConfig["mail"], { kind: "smtp" }>;

/**
 * Production mailer. SMTP_URL is nodemailer's connection URL: "smtp://user:pass@host:587" (STARTTLS
 * when offered) or "smtps://user:pass@host:465" (TLS from the start).
 */
export function createSmtpMailer(config: SmtpConfig): Mailer {
  const transport = nodemailer.createTransport(config.url, { from: config.from });
  return {
    kind: "smtp",
    async send(message) {
      const info = await transport.sendMail(message);
      return { id: info.messageId };
    },
  };
}
