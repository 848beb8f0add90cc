import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import nodemailer from "nodemailer";
import type { AppConfig } from "~/modules/config/config.server";
import { recipientsOf, type Mailer } from "./types";
import { logger } from "~/modules/log/logger.server";

type OutboxConfig = Extract<AppConfig["mail"], { kind: "outbox" }>;

export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/.exec(text)?.[0];
}

function fileNameFor(subject: string, sentAt: Date): string {
  const stamp = sentAt.toISOString().replace(/[:.]/g, "-");
  const slug =
    subject
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 40)
      .toLowerCase() || "message";
  return `${stamp}-${slug}-${randomBytes(3).toString("hex")}.eml`;
}

/**
 * Development mailer: every message becomes an .eml file in `config.dir` (opens in any mail
 * client) and one log line; with `showLinks` (development only) the line carries the first link of
 * the text, so sign-in links are a click away.
 */
export function createOutboxMailer(config: OutboxConfig, options: { showLinks?: boolean; log?: (line: string) => void } = {}): Mailer {
  const log = options.log ?? logger.info;
  // CRLF line ends, as in a real message: mail clients open such .eml files without complaint.
  const transport = nodemailer.createTransport({ streamTransport: true, newline: "windows" });
  const dir = path.resolve(config.dir);

  return {
    kind: "outbox",
    async send(message) {
      await fsp.mkdir(dir, { recursive: true });
      const info = await transport.sendMail({ from: config.from, ...message });
      const file = path.join(dir, fileNameFor(message.subject, new Date()));
      const source = info.message instanceof Readable ? info.message : Readable.from([info.message]);
      await pipeline(source, fs.createWriteStream(file, { flags: "wx" }));
      const link = options.showLinks ? firstLink(message.text) : null;
      log(`mail to ${recipientsOf(message)}: ${message.subject} -> ${file}${link ? ` ${link}` : ""}`);
      return { id: info.messageId };
    },
  };
}
