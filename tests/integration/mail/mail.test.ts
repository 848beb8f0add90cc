import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "~/modules/mail/mailer.server";
import { createOutboxMailer } from "~/modules/mail/outbox-mailer.server";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink";

const FROM = "Aligner Lab <no-reply@aligner.local>";

describe("SMTP mailer", () => {
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink?.stop();
  });

  it("delivers subject, recipient and body to the SMTP server", async () => {
    const mailer = createMailer({ mail: { kind: "smtp", url: sink.url, from: FROM } });
    expect(mailer.kind).toBe("smtp");
    const { id } = await mailer.send({
      to: "doctor@example.com",
      subject: "Your sign-in link",
      text: "Sign in: http://localhost:3000/auth/magic?token=abc",
      html: "<p><a href=\"http://localhost:3000/auth/magic?token=abc\">Sign in</a></p>",
    });

    const mail = await sink.waitFor((received) => received.envelope.to.includes("doctor@example.com"));
    expect(mail.envelope.from).toBe("no-reply@aligner.local");
    expect(mail.raw).toMatch(/^Subject: Your sign-in link\r$/m);
    expect(mail.raw).toMatch(/^To: doctor@example\.com\r$/m);
    expect(mail.raw).toMatch(/^From: Aligner Lab <no-reply@aligner\.local>\r$/m);
    expect(mail.raw).toContain("Sign in: http://localhost:3000/auth/magic?token=abc");
    expect(mail.raw).toContain("text/html");
    expect(id).toMatch(/^<.+@.+>$/);
    expect(mail.raw).toContain(`Message-ID: ${id}`);
    expect(mail.user).toBeUndefined();
  });

  it("authenticates with the credentials in the URL and sends to several recipients", async () => {
    const url = `smtp://mailer%40aligner.local:s3cret@127.0.0.1:${sink.port}`;
    const mailer = createMailer({ mail: { kind: "smtp", url, from: FROM } });
    await mailer.send({ to: ["a@example.com", "b@example.com"], subject: "Order 17 shipped", text: "On its way." });
    const mail = await sink.waitFor((received) => received.raw.includes("Order 17 shipped"));
    expect(mail.user).toBe("mailer@aligner.local");
    expect(mail.envelope.to).toEqual(["a@example.com", "b@example.com"]);
  });

  it("rejects when the server is unreachable", async () => {
    const mailer = createMailer({ mail: { kind: "smtp", url: "smtp://127.0.0.1:1", from: FROM } });
    await expect(mailer.send({ to: "x@example.com", subject: "s", text: "t" })).rejects.toThrow();
  });
});

describe("outbox mailer", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), "outbox-"));
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it("is what createMailer returns without SMTP", () => {
    expect(createMailer({ mail: { kind: "outbox", dir, from: FROM } }).kind).toBe("outbox");
  });

  it("writes an .eml file and logs one line with the first link in development", async () => {
    const lines: string[] = [];
    const outbox = path.join(dir, "not-yet-created");
    const mailer = createOutboxMailer({ kind: "outbox", dir: outbox, from: FROM }, { showLinks: true, log: (line) => lines.push(line) });
    const { id } = await mailer.send({
      to: "doctor@example.com",
      subject: "Your sign-in link",
      text: "Hello!\n\nSign in: http://localhost:3000/auth/magic?token=abc.\nOr visit https://aligner.local/help",
    });

    const files = await fsp.readdir(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = path.join(outbox, files[0]);
    const eml = await fsp.readFile(file, "utf8");
    expect(eml).toMatch(/^Subject: Your sign-in link\r$/m);
    expect(eml).toMatch(/^To: doctor@example\.com\r$/m);
    expect(eml).toContain(`Message-ID: ${id}`);
    expect(eml).toContain("http://localhost:3000/auth/magic?token=abc");

    expect(lines).toEqual([`mail to doctor@example.com: Your sign-in link -> ${file} http://localhost:3000/auth/magic?token=abc`]);
  });

  it("logs without a link when the text has none or outside development, and keeps every message", async () => {
    const lines: string[] = [];
    const mailer = createOutboxMailer({ kind: "outbox", dir, from: FROM }, { showLinks: true, log: (line) => lines.push(line) });
    await mailer.send({ to: ["a@example.com", "b@example.com"], subject: "Заказ 17 отправлен", text: "Без ссылок." });
    await mailer.send({ to: "a@example.com", subject: "Заказ 17 отправлен", text: "Ещё раз." });
    expect((await fsp.readdir(dir)).filter((name) => name.endsWith(".eml"))).toHaveLength(2);
    expect(lines[0]).toMatch(/^mail to a@example\.com, b@example\.com: Заказ 17 отправлен -> .+\.eml$/);
    const quiet: string[] = [];
    await createOutboxMailer({ kind: "outbox", dir, from: FROM }, { log: (line) => quiet.push(line) }).send({ to: "a@example.com", subject: "Вход", text: "http://localhost/auth/verify?token=secret" });
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).not.toContain("token=secret");
  });
});
