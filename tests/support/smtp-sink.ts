import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

export interface ReceivedMail {
  /** MAIL FROM / RCPT TO addresses. */
  envelope: { from: string | null; to: string[] };
  /** The message exactly as received (headers and body, CRLF line ends). */
  raw: string;
  /** The user name given with AUTH, if the client authenticated. */
  user: string | undefined;
}

export interface SmtpSink {
  host: string;
  port: number;
  /** smtp://127.0.0.1:<port> — plain SMTP, no TLS, any (or no) credentials accepted. */
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first received (or future) message matching `predicate`. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

const addressOf = (address: SMTPServerAddress | false) => (address ? address.address : null);

/** An SMTP server on a free loopback port that keeps every message it is sent. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true, // AUTH over plain text: there is no TLS on loopback
    disabledCommands: ["STARTTLS"],
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "anonymous" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        messages.push({
          envelope: { from: addressOf(session.envelope.mailFrom), to: session.envelope.rcptTo.map((rcpt) => rcpt.address) },
          raw: Buffer.concat(chunks).toString("utf8"),
          user: typeof session.user === "string" ? session.user : undefined,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.on("error", () => {}); // client hiccups must not crash the test process
  const { port } = server.server.address() as AddressInfo;

  return {
    host: "127.0.0.1",
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    stop() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
