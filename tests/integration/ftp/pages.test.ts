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

  /** The orders of a page, in order, with their entries' ids beneath them. */
  const groupsIn = (html: string) =>
    [...html.matchAll(/<tbody class="ftp-order">([\s\S]*?)<\/tbody>/g)].map((match) => ({
      code: /<span class="ftp-order-code">[^<]*?([0-9A-F]{4})<\/span>/.exec(match[1]!)![1]!,
      html: match[1]!,
      ids: rowsIn(match[1]!),
    }));

  it("lists the queue by order: each order's code, client and status above its files, drafts' files not listed", async () => {
    const draft = await orderWithFiles(t.db, storage, { status: "draft", patients: 1, filesPerPatient: 5 });
    const waiting = await orderWithFiles(t.db, storage, { status: "pending", filesPerPatient: 2 });
    const paid = await orderWithFiles(t.db, storage, { status: "paid", patients: 2, filesPerPatient: 3 });
    const done = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 3 });
    await t.db.updateTable("ftp_uploads_queue").set({ status: "completed", completed_at: new Date(), attempts: 1 }).where("order_id", "=", done.order.id).execute();

    const first = await page(staff, "/backoffice/ftp");
    expect(first).toContain("Очередь загрузки на FTP");
    expect(first).toContain('href="/backoffice/ftp"'); // the back-office tab
    expect(first).toContain("Обработать очередь");
    expect(first).toContain("Обновить");
    // Newest order first; the draft's five files are not there at all, nor counted.
    const groups = groupsIn(first);
    expect(groups.map((group) => group.code)).toEqual([paid.order.code.toUpperCase(), waiting.order.code.toUpperCase()]);
    expect(groups[0]!.ids.sort()).toEqual(paid.files.map((file) => file.entry.id).sort());
    expect(groups[1]!.ids.sort()).toEqual(waiting.files.map((file) => file.entry.id).sort());
    for (const file of draft.files) expect(first).not.toContain(file.entry.id);
    expect(first).toContain("Заказов: 2 · Записей: 8");
    // The order's heading: its code, status and client, and how many files it has here.
    expect(groups[0]!.html).toContain(`Заказ ${paid.order.code.toUpperCase()}`);
    expect(groups[0]!.html).toContain("Оплачен");
    expect(groups[0]!.html).toContain(paid.order.full_name!);
    expect(groups[0]!.html).toContain("Файлов: 6");
    // "Загрузить" only where a file can go now: a paid order's files, not an unpaid order's.
    for (const id of groups[0]!.ids) expect(groups[0]!.html).toContain(`value="upload:${id}"`);
    expect(groups[1]!.html).not.toContain('value="upload:');
    expect(groups[1]!.html).toContain("Отправится после оплаты заказа");
    expect(groups[1]!.html).toContain("Ожидает оплаты");

    const retainers = await page(staff, "/backoffice/ftp?type=retainer");
    expect(groupsIn(retainers).flatMap((group) => group.ids).sort()).toEqual(
      [...paid.files, ...waiting.files].filter((file) => file.entry.file_type === "retainer").map((file) => file.entry.id).sort(),
    );
    expect(retainers).toContain("Ретейнер");
    expect(retainers).not.toContain(">Матрица</td>");

    const completed = await page(staff, "/backoffice/ftp?status=completed");
    expect(groupsIn(completed).map((group) => group.code)).toEqual([done.order.code.toUpperCase()]);
    expect(rowsIn(completed).sort()).toEqual(done.files.map((file) => file.entry.id).sort());
    expect(completed).toContain("Загружено");
    // A completed entry cannot be sent again: no upload button.
    expect(completed).not.toContain('value="upload:');
    expect(groupsIn(await page(staff, "/backoffice/ftp?status=nonsense&page=-1&after=x"))).toHaveLength(2);
    await t.db.deleteFrom("orders").execute();
  });

  it("lists failed entries with their last error, and offers a retry only for entries that can go now", async () => {
    const paid = await orderWithFiles(t.db, storage, { status: "processing", filesPerPatient: 2 });
    const unpaid = await orderWithFiles(t.db, storage, { status: "cancelled", filesPerPatient: 1 });
    const failedIds = [paid.files[0]!.entry.id, unpaid.files[0]!.entry.id];
    await t.db
      .updateTable("ftp_uploads_queue")
      .set({ status: "failed", attempts: 3, error_message: "Ошибка загрузки файла из storage: NoSuchKey", last_attempt_at: new Date() })
      .where("id", "in", failedIds)
      .execute();
    const failed = await page(staff, "/backoffice/ftp?status=failed");
    const groups = groupsIn(failed);
    expect(groups.map((group) => group.code)).toEqual([unpaid.order.code.toUpperCase(), paid.order.code.toUpperCase()]);
    expect(groups.flatMap((group) => group.ids).sort()).toEqual([...failedIds].sort());
    expect(failed).toContain("Ошибка загрузки файла из storage: NoSuchKey");
    expect(failed).toContain("Попытки исчерпаны: отправьте вручную");
    expect(groups[1]!.html).toContain(`value="upload:${paid.files[0]!.entry.id}"`);
    expect(groups[0]!.html).not.toContain('value="upload:');
    // The pending entry of the same order is not among the failed ones.
    expect(failed).not.toContain(paid.files[1]!.entry.id);
    // A forged "Загрузить" for a file that cannot go now is refused and sends nothing.
    const forged = await post(staff, "/backoffice/ftp", [["back", "?status=failed"], ["intent", `upload:${unpaid.files[0]!.entry.id}`]]);
    expect(forged.location).toBe("/backoffice/ftp?status=failed");
    expect(forged.html).toContain("Файл отправится после оплаты заказа");
    expect(await entry(unpaid.files[0]!.entry.id)).toMatchObject({ status: "failed", attempts: 3, released_at: null });
    await t.db.deleteFrom("orders").execute();
  });

  it("pages by order with a keyset and counts up to the caps, saying \"more than\" past them", async () => {
    // 1,010 delivered orders of 10 files each: more orders and entries than the page counts.
    await sql`insert into orders (id, code, status, market, currency, full_name, paid_at, created_at)
      select u, substr(u::text, 1, 4), 'completed', 'domestic', 'rub', 'Клиника ' || n, now(), now() - n * interval '1 minute'
        from (select gen_random_uuid() as u, n from generate_series(1, 1010) n) s`.execute(t.db);
    await sql`insert into ftp_uploads_queue (order_id, file_path, original_name, destination_path, order_prefix, file_type, status, attempts, completed_at, created_at)
      select o.id, 'bulk/' || o.id || '/' || f || '.stl', 'Шаг ' || f || '.stl', '/bulk', o.code, 'aligners', 'completed', 1, now(), o.created_at
        from orders o, generate_series(1, 10) f`.execute(t.db);
    const byAge = (await t.db.selectFrom("orders").select(["id", "code"]).orderBy("created_at", "desc").orderBy("id", "desc").execute()).map((order) => order.code.toUpperCase());

    const first = await page(staff, "/backoffice/ftp?status=completed");
    expect(first).toMatch(/Заказов: более 1\s000 · Записей: более 10\s000</);
    const firstGroups = groupsIn(first);
    expect(firstGroups.map((group) => group.code)).toEqual(byAge.slice(0, 20));
    expect(firstGroups.every((group) => group.ids.length === 10)).toBe(true);
    expect(first).not.toContain("← Назад");
    const nextLink = /href="(\/backoffice\/ftp\?status=completed&amp;after=[0-9a-f-]{36})"/.exec(first)![1]!.replaceAll("&amp;", "&");
    const second = await page(staff, nextLink);
    expect(groupsIn(second).map((group) => group.code)).toEqual(byAge.slice(20, 40));
    // Back from the second page is the first page again.
    const previousLink = /href="(\/backoffice\/ftp\?status=completed&amp;before=[0-9a-f-]{36})"/.exec(second)![1]!.replaceAll("&amp;", "&");
    expect(groupsIn(await page(staff, previousLink)).map((group) => group.code)).toEqual(byAge.slice(0, 20));
    // The last page: the 10 oldest orders, and no page after it.
    const oldest = await t.db.selectFrom("orders").select("id").orderBy("created_at", "desc").orderBy("id", "desc").offset(999).limit(1).executeTakeFirstOrThrow();
    const last = await page(staff, `/backoffice/ftp?status=completed&after=${oldest.id}`);
    expect(groupsIn(last).map((group) => group.code)).toEqual(byAge.slice(1000));
    expect(last).not.toContain("Вперёд →");
    expect(last).toContain("В начало");
    // Under the caps the counts are exact.
    expect(await page(staff, "/backoffice/ftp?status=completed&type=matrix")).toContain("Заказов: 0 · Записей: 0");
    await t.db.deleteFrom("orders").execute();
  });

  it("sends one entry of a paid order now and shows where it went", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 2 });
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
    const { files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
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
