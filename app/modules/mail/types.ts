/** The mail interface, imported by the factory and by each implementation. */
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

export function recipientsOf(message: Pick<MailMessage, "to">): string {
  return Array.isArray(message.to) ? message.to.join(", ") : message.to;
}
