import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { expectedRemotePath, orderWithFiles, sha256 } from "./fixtures";
import { SECRETS, type TestApp, startApp } from "../../support/app";

type Browser = ReturnType<typeof browserFetch>;

/** /backoffice/ftp, /send-test and the cron route over HTTP against the real server, SFTP behind a proxy we can cut. */
describe("the FTP queue pages over HTTP", () => {
  let t: TestDatabase;
  let sftp: TestSftpServer;
  let proxy: TcpProxy;
  let app: TestApp;
  let storage: FileStorage;
  let staff: Browser;

  beforeAll(async () => {
    sftp = await startSftpServer();
    proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port } });
    process.env.SFTP_ROOT = sftp.root;
    app = await startApp({
      poolSize: 6,
      env: {
        SFTP_URL: proxy.via(sftp.url),
        SFTP_PRIVATE_KEY_PATH: sftp.privateKeyPath,
        SFTP_ROOT: sftp.root,
        QUEUE_MAX_ATTEMPTS: "3",
      },
    });
    t = app.database;
    storage = createStorage({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
    staff = browserFetch(app);
    const signedIn = await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice/ftp" } });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await sftp?.stop();
  });

  /** POSTs a form and returns the page the redirect leads to (with its one-time toast). */
  async function post(browser: Browser, pathname: string, form: Array<[string, string]>) {
    const body = new URLSearchParams(form);
    const response = await fetch(`${app.url}${pathname}`, {
      method: "POST",
      body,
      headers: { Cookie: browser.jar.header(), Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    browser.jar.store(response);
    expect(response.status, await response.clone().text()).toBe(302);
    const location = response.headers.get("Location")!;
    return { location, html: await page(browser, location) };
  }
  /** The page without its scripts: the texts of every language travel in the loader data. */
  const visible = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, "");
  const page = async (browser: Browser, pathname: string) => visible(await (await browser.request(pathname)).text());
  const rowsIn = (html: string) => [...html.matchAll(/<input type="checkbox" name="ids"[^>]* value="([0-9a-f-]{36})"/g)].map((match) => match[1]!);
  const entry = (id: string) => t.db.selectFrom("ftp_uploads_queue").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const folderOf = async (patientId: string | null) =>
    (await t.db.selectFrom("orders_patients").select("folder_name").where("id", "=", patientId!).executeTakeFirstOrThrow()).folder_name;

  it("lets only staff in, for pages and for actions", async () => {
    const stranger = browserFetch(app);
    for (const pathname of ["/backoffice/ftp", "/backoffice/ftp?status=failed", "/send-test"]) {
      const response = await stranger.request(pathname);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/backoffice/login?redirectTo=${encodeURIComponent(pathname)}`);
    }
    const { files } = await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 1 });
    const refused = await stranger.request("/backoffice/ftp", { form: { intent: "delete", ids: files[0]!.entry.id } });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toMatch(/^\/backoffice\/login/);
    const sent = await stranger.request("/backoffice/ftp", { form: { intent: `upload:${files[0]!.entry.id}` } });
    expect(sent.status).toBe(302);
    expect(await entry(files[0]!.entry.id)).toMatchObject({ status: "pending", attempts: 0 });
    // A cross-site form post never reaches the action.
    const evil = await fetch(`${app.url}/backoffice/ftp`, { method: "POST", headers: { Cookie: staff.jar.header(), Origin: "https://evil.example" }, body: new URLSearchParams({ intent: "process" }) });
    expect(evil.status).toBe(403);
    await t.db.deleteFrom("orders").execute();
  });

  it("lists pending entries by default, 50 a page, filters by status and type, with the spec's labels", async () => {
    const draft = await orderWithFiles(t.db, storage, { status: "draft", patients: 1, filesPerPatient: 55 });
    const done = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 3 });
    await t.db.updateTable("ftp_uploads_queue").set({ status: "completed", completed_at: new Date(), attempts: 1 }).where("order_id", "=", done.order.id).execute();

    const first = await page(staff, "/backoffice/ftp");
    expect(first).toContain("Очередь загрузки на FTP");
    expect(first).toContain('href="/backoffice/ftp"'); // the back-office tab
    expect(first).toContain("Обработать очередь");
    expect(first).toContain("Обновить");
    expect(first).toContain("Записей: 55");
    expect(first).toContain("Страница 1 из 2");
    expect(first).toContain("Ожидает");
    expect(first).toContain("Отправится после оплаты заказа");
    const page1 = rowsIn(first);
    expect(page1).toHaveLength(50);
    const page2 = rowsIn(await page(staff, "/backoffice/ftp?page=2"));
    expect(page2).toHaveLength(5);
    expect(new Set([...page1, ...page2])).toEqual(new Set(draft.files.map((file) => file.entry.id)));

    const retainers = await page(staff, "/backoffice/ftp?type=retainer");
    expect(rowsIn(retainers)).toHaveLength(draft.files.filter((file) => file.entry.file_type === "retainer").length);
    expect(retainers).toContain("Ретейнер");
    expect(retainers).not.toContain(">Матрица</td>");

    const completed = await page(staff, "/backoffice/ftp?status=completed");
    expect(rowsIn(completed).sort()).toEqual(done.files.map((file) => file.entry.id).sort());
    expect(completed).toContain("Загружено");
    // A completed entry cannot be sent again: no upload button.
    expect(completed).not.toContain('value="upload:');
    expect(rowsIn(await page(staff, "/backoffice/ftp?status=nonsense&page=-1"))).toHaveLength(50);
    await t.db.deleteFrom("orders").execute();
  });

  it("counts a long list up to 10,000, says \"more than\" past it and still pages to its end, newest first", async () => {
    const done = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    await sql`insert into ftp_uploads_queue (order_id, file_path, original_name, destination_path, order_prefix, file_type, status, attempts, completed_at, created_at)
      select ${done.order.id}, 'bulk/' || n || '.stl', 'Шаг ' || n || '.stl', '/bulk', ${done.order.code}, 'aligners', 'completed', 1, now(), now() - n * interval '1 second'
        from generate_series(1, 10060) n`.execute(t.db);

    const first = await page(staff, "/backoffice/ftp?status=completed");
    expect(first).toMatch(/Записей: более 10\s000</);
    expect(first).toMatch(/Страница 1</);
    expect(first).toContain("Шаг 1.stl");
    expect(first).toMatch(/href="[^"]*page=2"/);
    // Page 202 holds entries 10,051–10,060: the oldest, and no page after it.
    const last = await page(staff, "/backoffice/ftp?status=completed&page=202");
    expect(rowsIn(last)).toHaveLength(10);
    expect(last).toContain("Шаг 10051.stl");
    expect(last).toContain("Шаг 10060.stl");
    expect(last).not.toContain("Шаг 10050.stl");
    expect(last).not.toMatch(/href="[^"]*page=203"/);
    expect(last).toMatch(/href="[^"]*page=201"/);
    // Under the cap the count is exact.
    expect(await page(staff, "/backoffice/ftp?status=completed&type=matrix")).toContain("Записей: 0");
    await t.db.deleteFrom("orders").execute();
  });

  it("sends one entry now, paid or not, and shows where it went", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 2 });
    const [file] = files;
    const { location, html } = await post(staff, "/backoffice/ftp", [
      ["back", "?type=matrix"],
      ["intent", `upload:${file!.entry.id}`],
    ]);
    expect(location).toBe("/backoffice/ftp?type=matrix");
    expect(html).toContain("Отправлено");
    expect(html).toContain("Файл успешно отправлен на FTP");
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    expect(sha256(await fsp.readFile(remote))).toBe(file!.sha256);
    const sent = await entry(file!.entry.id);
    expect(sent.status).toBe("completed");
    expect(sent.released_by).toMatch(/^back-office password \(.*127\.0\.0\.1\)$/);

    const again = await post(staff, "/backoffice/ftp", [["intent", `upload:${file!.entry.id}`]]);
    expect(again.html).toContain("Файл уже загружен на FTP");
    const completed = await page(staff, "/backoffice/ftp?status=completed");
    expect(completed).toContain("Отправлен вручную");
    await t.db.deleteFrom("orders").execute();
  });

  it("shows the spec's error when the file server is unreachable, and the last error per entry", async () => {
    const { files } = await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 1 });
    proxy.setLimits({ cutAfterBytes: { upstream: 0 } });
    try {
      const { html } = await post(staff, "/backoffice/ftp", [["intent", `upload:${files[0]!.entry.id}`]]);
      expect(html).toContain("Ошибка");
      expect(html).toContain("Не удалось загрузить файл на FTP сервер: SFTP: ");
    } finally {
      proxy.setLimits({});
    }
    const row = await entry(files[0]!.entry.id);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    const failed = await page(staff, "/backoffice/ftp?status=failed");
    expect(rowsIn(failed)).toEqual([files[0]!.entry.id]);
    expect(failed).toContain("Следующая попытка:");
    await t.db.deleteFrom("orders").execute();
  });

  it("processes the queue on demand: due files go, a file missing from storage fails with the spec's message", async () => {
    const nothing = await post(staff, "/backoffice/ftp", [["intent", "process"]]);
    expect(nothing.html).toContain("Нет файлов для обработки");

    const paid = await orderWithFiles(t.db, storage, { status: "processing", filesPerPatient: 4 });
    const missing = paid.files[3]!;
    await storage.delete("orders", [missing.entry.file_path]);
    const { html } = await post(staff, "/backoffice/ftp", [["intent", "process"]]);
    expect(html).toContain("Готово");
    expect(html).toContain("Отправлено файлов: 3, ошибок: 1, осталось в очереди: 1");
    for (const file of paid.files.slice(0, 3)) expect((await entry(file.entry.id)).status).toBe("completed");

    const failed = await page(staff, "/backoffice/ftp?status=failed");
    expect(rowsIn(failed)).toEqual([missing.entry.id]);
    expect(failed).toContain("Ошибка загрузки файла из storage: NoSuchKey");
    expect(await entry(missing.entry.id)).toMatchObject({ status: "failed", attempts: 1, error_message: "Ошибка загрузки файла из storage: NoSuchKey" });
    await t.db.deleteFrom("orders").execute();
  });

  it("deletes the selected entries with the spec's count", async () => {
    const { files } = await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 5 });
    const chosen = files.slice(0, 3).map((file) => file.entry.id);
    const { html } = await post(staff, "/backoffice/ftp", [["back", "?status=pending"], ["intent", "delete"], ...chosen.map((id): [string, string] => ["ids", id]), ["ids", "not-a-uuid"]]);
    expect(html).toContain("Удалено");
    expect(html).toContain("Успешно удалено записей: 3");
    const left = await t.db.selectFrom("ftp_uploads_queue").select("id").execute();
    expect(left.map((row) => row.id).sort()).toEqual(files.slice(3).map((file) => file.entry.id).sort());

    const none = await post(staff, "/backoffice/ftp", [["intent", "delete"]]);
    expect(none.html).toContain("Не выбрано ни одной записи");
    const bad = await staff.request("/backoffice/ftp", { form: { intent: "launch-rockets" } });
    expect(bad.status).toBe(400);
    await t.db.deleteFrom("orders").execute();
  });

  it("runs the queue from the cron route and answers with a JSON summary", async () => {
    const paid = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 3 });
    await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 2 });
    const refused = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: "Bearer wrong" } });
    expect(refused.status).toBe(401);
    const ran = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: `Bearer ${SECRETS.CRON_SECRET}` } });
    expect(ran.status).toBe(200);
    expect(await ran.json()).toMatchObject({ ok: true, claimed: 3, completed: 3, failed: 0, released: 0, remaining: 0, abandonedDraftsDeleted: 0 });
    for (const file of paid.files) {
      const remote = expectedRemotePath(sftp.root, paid.order, file.entry, await folderOf(file.entry.patient_id));
      expect(sha256(await fsp.readFile(remote))).toBe(file.sha256);
    }
    await t.db.deleteFrom("orders").execute();
  });

  describe("/send-test", () => {
    async function sendTest(browser: Browser, file: { name: string; content: Buffer } | null) {
      const form = new FormData();
      form.append("file", file ? new Blob([new Uint8Array(file.content)]) : new Blob([]), file?.name ?? "");
      const response = await fetch(`${app.url}/send-test`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
      expect(response.status).toBe(302);
      const location = response.headers.get("Location")!;
      return { location, html: await page(browser, location) };
    }

    it("shows the form with the test folder", async () => {
      const html = await page(staff, "/send-test");
      expect(html).toContain("Тестовая загрузка на FTP");
      expect(html).toContain(`${sftp.root}/test`);
      expect(html).toMatch(/<form method="post" encType="multipart\/form-data" action="\/send-test"/i);
    });

    it("streams a file to <root>/test and shows the path and size", async () => {
      const content = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
      const { location, html } = await sendTest(staff, { name: "Проверка связи.stl", content });
      expect(location).toBe(`/send-test?sent=${encodeURIComponent(`${sftp.root}/test/Proverka_svyazi.stl`)}&size=${content.length}`);
      expect(html).toContain("Файл успешно отправлен на FTP");
      expect(html).toContain(`Путь на сервере: ${sftp.root}/test/Proverka_svyazi.stl`);
      expect(html).toContain("Размер: 3,00 МБ");
      expect(sha256(await fsp.readFile(path.join(sftp.root, "test", "Proverka_svyazi.stl")))).toBe(sha256(content));
      expect(fs.readdirSync(path.join(sftp.root, "test")).filter((name) => name.endsWith(".part"))).toEqual([]);
    });

    it("asks for a file when none was chosen", async () => {
      const { location, html } = await sendTest(staff, null);
      expect(location).toBe("/send-test?error=noFile");
      expect(html).toContain("Ошибка загрузки");
      expect(html).toContain("Пожалуйста, выберите файл для загрузки");
    });

    it("shows the spec's error when the server is unreachable", async () => {
      proxy.setLimits({ cutAfterBytes: { upstream: 0 } });
      try {
        const { location, html } = await sendTest(staff, { name: "ping.txt", content: Buffer.from("ping") });
        expect(location).toBe("/send-test?error=failed");
        expect(html).toContain("Не удалось загрузить файл на FTP сервер");
      } finally {
        proxy.setLimits({});
      }
    });

    it("never shows a result it did not produce", async () => {
      for (const query of ["sent=/etc/passwd&size=1", `sent=${encodeURIComponent(`${sftp.root}/test/../x`)}&size=1`, "error=<script>"]) {
        const html = await page(staff, `/send-test?${query}`);
        expect(html).not.toContain("Файл успешно отправлен на FTP");
        expect(html).not.toContain("Ошибка загрузки");
      }
    });
  });
});
