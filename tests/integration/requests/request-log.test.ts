import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import { latestOutboxMail } from "../../support/mail-text";
import { startApp, type TestApp } from "../../support/app";

/**
 * The server's log (ADR 031): one JSON line per request with its id, method, path, route, status,
 * duration and role, and nothing a log must not keep — the e-mail, the sign-in token, the patient's
 * name and the phone that were in the requests appear nowhere in the output, whichever part of the
 * server wrote it.
 */
interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  method?: string;
  path?: string;
  route?: string;
  status?: number;
  ms?: number;
  role?: string;
}

describe("request log", () => {
  let app: TestApp;
  const lines = () =>
    app
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
  const lineOf = (requestId: string) => lines().find((line) => line.msg === "request" && line.requestId === requestId);

  beforeAll(async () => {
    app = await startApp({ env: { LOG_LEVEL: "info" } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("writes one line per request, under the proxy's request id when it sent one, and sends the id back", async () => {
    const response = await fetch(`${app.url}/privacy?utm_source=newsletter`, { headers: { "X-Request-Id": "support-ticket-20261125" } });
    await response.text();
    expect(response.headers.get("X-Request-Id")).toBe("support-ticket-20261125");
    await expect.poll(() => lineOf("support-ticket-20261125")).toMatchObject({ method: "GET", path: "/privacy", route: "routes/privacy", status: 200, role: "anonymous" });
    // An id that is not a sensible token is replaced, not written into the log.
    const forged = await fetch(`${app.url}/privacy`, { headers: { "X-Request-Id": '"><script>alert(1)</script>' } });
    await forged.text();
    expect(forged.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.output()).not.toContain("<script>");
  });

  it("keeps no e-mail, sign-in token, patient name or phone that were in the requests", async () => {
    const email = "tainova.doctor@klinika-tajna.ru";
    const phone = "+7 911 555-44-33";
    const patient = "Секретова Варвара Павловна";
    const browser = browserFetch(app);
    await browser.request("/auth", { form: { email } });
    const mail = latestOutboxMail(path.join(app.dataDir, "outbox"), email);
    expect(mail).not.toBeNull();
    const token = new URL(mail!.link).searchParams.get("token")!;
    const verify = await browser.request(`/auth/verify?token=${encodeURIComponent(token)}`);
    await verify.text();
    expect((await browser.request("/auth/verify", { form: { token } })).headers.get("Location")).toBe("/cabinet");
    const cabinet = await browser.request("/cabinet");
    await cabinet.text();
    await browser.request("/order", { form: { intent: "next" } });
    await browser.request("/order", { form: { intent: "next", email, phone } });
    await browser.request("/order", { form: { intent: "next", full_name: patient, address: "Москва, ул. Тайная, 7", consent: "on" } });
    await browser.request("/order", { form: { intent: "add_patient", patient_name: patient } });

    await expect.poll(() => lineOf(cabinet.headers.get("X-Request-Id")!)).toMatchObject({ path: "/cabinet", status: 200, role: "client" });
    const verifyLine = lineOf(verify.headers.get("X-Request-Id")!);
    expect(verifyLine?.path).toBe("/auth/verify");
    // The last requests' lines are written as their answers end: waited for, not raced.
    await expect.poll(() => lines().filter((line) => line.msg === "request").length).toBeGreaterThan(8);
    const output = app.output();
    for (const secret of [email, token, encodeURIComponent(token), patient, phone, "Тайная"]) expect(output, secret).not.toContain(secret);
  });
});
