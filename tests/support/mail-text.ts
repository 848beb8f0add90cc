import fs from "node:fs";
import path from "node:path";

/**
 * The plain-text body of a raw MIME message as nodemailer writes it (quoted-printable or base64),
 * for tests that read sign-in links from the outbox or the SMTP sink.
 */
export function mailText(raw: string): string {
  const normalized = raw.replace(/\r\n/g, "\n");
  const split = normalized.indexOf("\n\n");
  const headers = normalized.slice(0, split);
  let body = normalized.slice(split + 2);
  const boundary = /boundary="?([^";\n]+)"?/i.exec(headers)?.[1];
  let partHeaders = headers;
  if (boundary) {
    const part = body.split(`--${boundary}`).find((chunk) => /content-type:\s*text\/plain/i.test(chunk)) ?? "";
    const partSplit = part.indexOf("\n\n");
    partHeaders = part.slice(0, partSplit);
    body = part.slice(partSplit + 2);
  }
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(partHeaders)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

export interface SignInMail {
  to: string;
  link: string;
  code: string;
  text: string;
}

export function parseSignInMail(raw: string): SignInMail {
  const text = mailText(raw);
  const link = /https?:\/\/\S+\/auth\/verify\?token=[\w%-]+/.exec(text)?.[0];
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  const to = /^To:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? "";
  if (!link || !code) throw new Error(`no sign-in link in mail:\n${text}`);
  return { to, link, code, text };
}

/** The newest sign-in mail for `email` in an outbox folder. */
export function latestOutboxMail(outbox: string, email: string): SignInMail | null {
  if (!fs.existsSync(outbox)) return null;
  const files = fs
    .readdirSync(outbox)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => path.join(outbox, file))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const file of files) {
    const raw = fs.readFileSync(file, "utf8");
    if (raw.toLowerCase().includes(email.toLowerCase()) && raw.includes("auth/verify")) return parseSignInMail(raw);
    if (raw.toLowerCase().includes(email.toLowerCase())) {
      try {
        return parseSignInMail(raw);
      } catch {
        // another kind of mail to the same address
      }
    }
  }
  return null;
}
