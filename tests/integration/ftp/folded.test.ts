import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_FILES_OPEN } from "~/modules/ftp/queue";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { gatePassed, type Browser } from "../backoffice/support";
import { startApp, type TestApp } from "../../support/app";
import { orderWithFiles } from "./fixtures";

/**
 * The queue page lists an order's files folded when it has many (ADR 098): counts by state in the
 * order's heading, the failed files still listed (the ones staff act on), and a link that opens the
 * order with all its files — so a page of 20 orders stays light however many files they hold.
 */
describe("the FTP queue's folded orders", () => {
  let app: TestApp;
  let storage: FileStorage;
  let staff: Browser;

  beforeAll(async () => {
    app = await startApp();
    storage = createStorage({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
    staff = await gatePassed(app);
  });
  afterEach(async () => {
    await app.database.db.deleteFrom("orders").execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const visible = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, "");
  const page = async (pathname: string) => visible(await (await staff.request(pathname)).text());
  const groupOf = (html: string, orderId: string) => {
    const group = [...html.matchAll(/<tbody class="ftp-order">([\s\S]*?)<\/tbody>/g)].map((match) => match[1]!).find((body) => body.includes(`id="ftp-order-${orderId}"`));
    expect(group, `order ${orderId} on the page`).toBeDefined();
    return { html: group!, ids: [...group!.matchAll(/<input type="checkbox" name="ids"[^>]* value="([0-9a-f-]{36})"/g)].map((match) => match[1]!) };
  };
  const openLinkIn = (html: string) => /<a [^>]*href="(\/backoffice\/ftp\?[^"]*open=[0-9a-f-]{36}[^"]*)"[^>]*>Показать все файлы заказа \((\d+)\)<\/a>/.exec(html);

  it("folds an order of many files into its counts by state, lists its failed ones, and opens it whole by its link", async () => {
    const db = app.database.db;
    // 16 files: 12 delivered, 3 failed, 1 waiting.
    const mixed = await orderWithFiles(db, storage, { status: "paid", patients: 2, filesPerPatient: 8 });
    const ids = mixed.files.map((file) => file.entry.id);
    await db.updateTable("ftp_uploads_queue").set({ status: "completed", completed_at: new Date(), attempts: 1 }).where("id", "in", ids.slice(0, 12)).execute();
    await db.updateTable("ftp_uploads_queue").set({ status: "failed", attempts: 1, error_message: "SFTP: connection reset", last_attempt_at: new Date() }).where("id", "in", ids.slice(12, 15)).execute();
    // 14 files, 12 of them failed: more failed files than an order lists folded.
    const failing = await orderWithFiles(db, storage, { status: "processing", filesPerPatient: 14 });
    const failingIds = failing.files.map((file) => file.entry.id);
    await db.updateTable("ftp_uploads_queue").set({ status: "failed", attempts: 1, error_message: "SFTP: connection reset", last_attempt_at: new Date() }).where("id", "in", failingIds.slice(0, 12)).execute();

    // Delivered: 12 files, folded — the counts, no file rows, and the link to all of them.
    const completed = await page("/backoffice/ftp?status=completed");
    const folded = groupOf(completed, mixed.order.id);
    expect(folded.html).toContain("Файлов: 12");
    expect(folded.html).toContain("Загружено: 12");
    expect(folded.ids).toEqual([]);
    const link = openLinkIn(folded.html)!;
    expect(link[2]).toBe("12");
    // Opened: all 12 in upload order, and a way to fold it again.
    const opened = groupOf(await page(link[1]!.replaceAll("&amp;", "&")), mixed.order.id);
    expect(opened.ids).toEqual(ids.slice(0, 12));
    expect(opened.html).toContain("Свернуть файлы заказа");

    // Failed: the order's 3 failed files are few, so they are listed with their error and a retry.
    const failed = await page("/backoffice/ftp?status=failed");
    const few = groupOf(failed, mixed.order.id);
    expect(few.ids).toEqual(ids.slice(12, 15));
    expect(few.html).toContain("SFTP: connection reset");
    for (const id of few.ids) expect(few.html).toContain(`value="upload:${id}"`);
    expect(openLinkIn(few.html)).toBeNull();
    // 12 failed files: folded, the first ten still listed, the count of all of them, and the link.
    const many = groupOf(failed, failing.order.id);
    expect(many.html).toContain("Ошибка: 12");
    expect(many.ids).toEqual(failingIds.slice(0, QUEUE_FILES_OPEN));
    expect(many.html).toContain(`Показаны файлы с ошибкой: ${QUEUE_FILES_OPEN}`);
    expect(openLinkIn(many.html)![2]).toBe("12");
    // The same order waits with 2 files: listed as they are.
    expect(groupOf(await page("/backoffice/ftp"), failing.order.id).ids).toEqual(failingIds.slice(12));

    // A form sent from the opened order comes back to it opened.
    const back = `?status=completed&open=${mixed.order.id}`;
    const deleted = await staff.request("/backoffice/ftp", { form: { intent: "delete", back, ids: ids[0]! } });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/backoffice/ftp${back}`);
  });

  it("lists at most ten files an order on a page of large orders", async () => {
    const db = app.database.db;
    for (let i = 0; i < 3; i++) {
      const order = await orderWithFiles(db, storage, { status: "paid", filesPerPatient: 11 + i });
      await db.updateTable("ftp_uploads_queue").set({ status: "completed", completed_at: new Date(), attempts: 1 }).where("order_id", "=", order.order.id).execute();
    }
    const completed = await page("/backoffice/ftp?status=completed");
    expect([...completed.matchAll(/<input type="checkbox" name="ids"/g)]).toHaveLength(0);
    expect([...completed.matchAll(/Показать все файлы заказа \((\d+)\)/g)].map((match) => match[1])).toEqual(["13", "12", "11"]);
  });
});
