import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStorage,
  type FileStorage,
} from "~/modules/storage/storage.server";
import type { TestDatabase } from "../../support/database";
import {
  buildOrder,
  buildOrderIn,
  buildPatient,
  staff as staffActor,
} from "../../support/builders";
import { DASHBOARD_PAGE_SIZE } from "~/modules/backoffice/dashboard.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { follow, gatePassed, rendered, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/** The orders dashboard over HTTP: statistics, filters, the status workflow and deletion (staff side §2, §4, §9; DESIGN §4.1, §4.7). */
describe("the orders dashboard", () => {
  let t: TestDatabase;
  let app: TestApp;
  let staff: Browser;
  let storage: FileStorage;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    staff = await gatePassed(app);
    storage = createStorage({
      storage: { kind: "folder", dir: path.join(app.dataDir, "storage") },
      buckets: { orders: "orders", logos: "logos" },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const withPatient = async <T extends { id: string }>(order: T) => (
    await buildPatient(t.db, order.id), order
  );
  const card = (html: string, orderId: string) => {
    const start = html.indexOf(`aria-labelledby="order-${orderId}"`);
    expect(start, `card of ${orderId}`).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf("</article>", start));
  };
  const stat = (html: string, id: string) => {
    const start = html.indexOf(`aria-labelledby="${id}"`);
    return html
      .slice(start, html.indexOf("</div>", start))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  };

  it("counts the paid set of the last 30 days against the 30 before, per currency", async () => {
    // Current window: paid, processing, completed (3 × 12 500 ₽) and one international (182 €); pending and cancelled never count.
    for (const status of ["paid", "processing", "completed"] as const)
      await withPatient(
        await buildOrderIn(t.db, status, { createdAt: daysAgo(5) })
      );
    const euro = await buildOrderIn(t.db, "paid", {
      createdAt: daysAgo(3),
      market: "international",
      currency: "eur",
    });
    await t.db
      .updateTable("orders")
      .set({ total_cost: 18_200 })
      .where("id", "=", euro.id)
      .execute();
    await buildOrderIn(t.db, "pending", { createdAt: daysAgo(2) });
    await buildOrderIn(t.db, "cancelled", { createdAt: daysAgo(2) });
    // Previous window: one shipped order of 12 500 ₽; older than 60 days: ignored.
    await buildOrderIn(t.db, "shipped", { createdAt: daysAgo(40) });
    await buildOrderIn(t.db, "completed", { createdAt: daysAgo(70) });

    const html = rendered(await (await staff.request("/backoffice")).text());
    expect(stat(html, "stat-count")).toContain(
      "Заказов 4 +300% к предыдущим 30 дням (было 1)"
    );
    expect(stat(html, "stat-revenue-rub")).toMatch(
      /Выручка, RUB 37\s500\s₽ \+200% к предыдущим 30 дням \(было 12\s500\s₽\)/
    );
    expect(stat(html, "stat-average-rub")).toMatch(
      /Средний чек, RUB 12\s500\s₽ 0% к предыдущим 30 дням \(было 12\s500\s₽\)/
    );
    expect(stat(html, "stat-revenue-eur")).toMatch(
      /Выручка, EUR 182,00\s€ \+100% к предыдущим 30 дням \(было 0,00\s€\)/
    );
  });

  it("hides orders without patients unless asked, and filters by status", async () => {
    const empty = await buildOrderIn(t.db, "pending", {
      fullName: "Пустой Заказ",
    });
    const withPatients = await withPatient(
      await buildOrderIn(t.db, "pending", { fullName: "Полный Заказ" })
    );
    // "Все", the specification's view of every status (the page opens on what needs staff, ADR 066).
    const all = rendered(
      await (await staff.request("/backoffice?status=all")).text()
    );
    expect(all).not.toContain(`order-${empty.id}`);
    expect(all).toContain(`order-${withPatients.id}`);
    expect(
      rendered(
        await (await staff.request("/backoffice?status=all&empty=1")).text()
      )
    ).toContain(`order-${empty.id}`);
    const pending = rendered(
      await (await staff.request("/backoffice?status=pending&empty=1")).text()
    );
    const statuses = [
      ...pending.matchAll(/<span class="badge badge-(\w+)">/g),
    ].map((match) => match[1]);
    expect(new Set(statuses)).toEqual(new Set(["pending"]));
    const search = rendered(
      await (
        await staff.request(`/backoffice?q=${withPatients.id.slice(0, 4)}`)
      ).text()
    );
    expect(search).toContain(`order-${withPatients.id}`);
  });

  it("shows 'Выполнить' disabled for unpaid and completed orders and not at all for drafts", async () => {
    const draft = await withPatient(await buildOrder(t.db));
    const pending = await withPatient(await buildOrderIn(t.db, "pending"));
    const completed = await withPatient(await buildOrderIn(t.db, "completed"));
    const paid = await withPatient(await buildOrderIn(t.db, "paid"));
    const html = rendered(
      await (await staff.request("/backoffice?status=all&empty=1")).text()
    );
    const complete = (orderId: string) =>
      /<button type="submit" class="button button-small"( disabled="")?>Выполнить<\/button>/.exec(
        card(html, orderId)
      );
    expect(complete(draft.id)).toBeNull();
    expect(complete(pending.id)?.[1]).toBe(' disabled=""');
    expect(complete(completed.id)?.[1]).toBe(' disabled=""');
    expect(complete(paid.id)?.[1]).toBeUndefined();
    // Send to tracker only for paid or pending, a payment link only for draft or pending with a total.
    expect(card(html, paid.id)).toContain("Отправить в трекер");
    expect(card(html, completed.id)).not.toContain("Отправить в трекер");
    expect(card(html, pending.id)).toContain("Создать ссылку на оплату");
    expect(card(html, paid.id)).not.toContain("Создать ссылку на оплату");
  });

  it("moves an order paid → processing → shipped (tracking number) → completed through the state machine, with history", async () => {
    const order = await withPatient(await buildOrderIn(t.db, "paid"));
    const status = (form: Record<string, string>) =>
      staff.request(`/backoffice/orders/${order.id}/status`, {
        form: { back: "/backoffice?status=processing", ...form },
      });
    const statusOf = async () =>
      (
        await t.db
          .selectFrom("orders")
          .select(["status", "tracking_number"])
          .where("id", "=", order.id)
          .executeTakeFirstOrThrow()
      ).status;

    const toProcessing = await status({ to: "processing" });
    expect(toProcessing.headers.get("Location")).toBe(
      "/backoffice?status=processing"
    );
    expect(toastOf(await follow(staff, toProcessing))).toEqual(["Готово"]);
    expect(await statusOf()).toBe("processing");

    const noTracking = await status({ to: "shipped", trackingNumber: "  " });
    expect(toastOf(await follow(staff, noTracking))).toEqual([
      "Не удалось обновить статус заказа...",
      "Укажите трек-номер",
    ]);
    expect(await statusOf()).toBe("processing");
    await status({ to: "shipped", trackingNumber: "RA123456789RU" });
    expect(await statusOf()).toBe("shipped");
    await status({ to: "completed" });
    expect(await statusOf()).toBe("completed");

    // Nothing leaves "completed".
    const back = await status({ to: "processing" });
    expect(toastOf(await follow(staff, back))).toEqual([
      "Не удалось обновить статус заказа...",
      "Такой переход статуса не разрешён",
    ]);

    const history = await t.db
      .selectFrom("order_status_history")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(history.map((entry) => entry.to_status)).toEqual([
      "draft",
      "pending",
      "paid",
      "processing",
      "shipped",
      "completed",
    ]);
    expect(history.at(-1)!.actor).toMatch(/^back-office password \(/);
    expect(
      history.find((entry) => entry.to_status === "shipped")?.tracking_number
    ).toBe("RA123456789RU");
    const html = card(
      rendered(
        await (
          await staff.request(`/backoffice?q=${order.id.slice(0, 8)}`)
        ).text()
      ),
      order.id
    );
    // The card keeps the latest change and links to the whole history on the order's page (ADR 100).
    expect(html).toContain("Отправлен → Завершен");
    expect(html).toContain(`href="/backoffice/orders/${order.id}#history"`);
    const orderPage = rendered(await (await staff.request(`/backoffice/orders/${order.id}`)).text());
    expect(orderPage).toContain("В работе → Отправлен");
    expect(orderPage).toContain("Трек-номер: RA123456789RU");
    expect(orderPage).toContain("Отправлен → Завершен");
  });

  it("counts each patient's files on the card, and lists them with their links on the order's files page", async () => {
    const order = await buildOrderIn(t.db, "paid");
    const patient = await buildPatient(t.db, order.id, "Смирнова Е.");
    const file = (name: string, type: string, index: number) => {
      const storagePath = `order_${order.id}/${patient.folder_name}/${type}/file_${index}.stl`;
      return {
        originalName: name,
        storagePath,
        url: `/files/orders/${storagePath}`,
        type: "model/stl",
        size: 2_048,
      };
    };
    const aligners = Array.from({ length: 12 }, (_, index) =>
      file(
        `Шаг ${String(index + 1).padStart(2, "0")} верх.stl`,
        "aligners",
        index
      )
    );
    await t.db
      .updateTable("orders_patients")
      .set({
        aligner_files_info: JSON.stringify(aligners),
        matrix_files_info: JSON.stringify([
          file("Верхняя челюсть.stl", "matrix", 20),
        ]),
        skip_retainers: true,
      })
      .where("id", "=", patient.id)
      .execute();

    // Entries the wizard's reader skips are not counted either: no URL, an empty path, not an object.
    const broken = [
      { ...file("Без ссылки.stl", "matrix", 30), url: "" },
      { ...file("Без пути.stl", "matrix", 31), storagePath: "" },
      42,
      "text",
    ];
    await t.db
      .updateTable("orders_patients")
      .set({
        matrix_files_info: JSON.stringify([
          file("Верхняя челюсть.stl", "matrix", 20),
          ...broken,
        ]),
      })
      .where("id", "=", patient.id)
      .execute();

    const html = await (await staff.request("/backoffice?status=paid")).text();
    const textOf = (part: string) =>
      rendered(part)
        .replace(/<!-- -->/g, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ");
    const text = textOf(card(html, order.id));
    expect(text).toContain("Матрицы: 1");
    expect(text).toContain("Элайнеры: 12");
    expect(text).toContain("Ретейнеры: пропущено");
    // The card carries counts, not the files: the dashboard stays light with many orders of many files.
    expect(html).not.toContain(aligners[0]!.url);
    const link = new RegExp(
      `href="(/backoffice/orders/${order.id}/files\\?back=[^"#]+)#files-${patient.folder_name}"[^>]*>Открыть файлы<`
    ).exec(card(html, order.id));
    expect(link, "the patient's files are a link away").not.toBeNull();

    const files = await staff.request(link![1]!.replaceAll("&amp;", "&"));
    expect(files.status).toBe(200);
    const page = await files.text();
    for (const aligner of aligners)
      expect(page).toContain(`href="${aligner.url}"`);
    expect(textOf(page)).toContain("Шаг 12 верх.stl 2,00 КБ");
    expect(textOf(page)).toContain(
      `Файлы заказа ${order.id.slice(0, 4).toUpperCase()}`
    );
    expect(page).toContain(`id="files-${patient.folder_name}"`);
    expect(textOf(page)).not.toContain("Без ссылки");
    expect(textOf(page)).not.toContain("Без пути");
    // Its close link goes back to the dashboard with the filter it came from.
    expect(page).toContain('href="/backoffice?status=paid"');

    expect(
      (await staff.request(`/backoffice/orders/${crypto.randomUUID()}/files`))
        .status
    ).toBe(404);
    expect(
      (await staff.request("/backoffice/orders/not-an-id/files")).status
    ).toBe(404);
  });

  it("cancels a paid order only with a note", async () => {
    const order = await withPatient(await buildOrderIn(t.db, "paid"));
    const noNote = await staff.request(
      `/backoffice/orders/${order.id}/status`,
      { form: { to: "cancelled", note: "" } }
    );
    expect(toastOf(await follow(staff, noNote))?.[1]).toBe(
      "Укажите причину отмены"
    );
    await staff.request(`/backoffice/orders/${order.id}/status`, {
      form: { to: "cancelled", note: "Клиент передумал" },
    });
    const entry = await t.db
      .selectFrom("order_status_history")
      .selectAll()
      .where("order_id", "=", order.id)
      .where("to_status", "=", "cancelled")
      .executeTakeFirstOrThrow();
    expect(entry.note).toBe("Клиент передумал");
  });

  it("never deletes an order that was paid, even after cancelling", async () => {
    const paid = await withPatient(await buildOrderIn(t.db, "paid"));
    const cancelled = await withPatient(await buildOrderIn(t.db, "paid"));
    await changeOrderStatus(t.db, cancelled.id, "cancelled", staffActor, {
      note: "Возврат",
    });
    for (const order of [paid, cancelled]) {
      const page = rendered(
        await (
          await staff.request(`/backoffice/orders/${order.id}/delete`)
        ).text()
      );
      expect(page).toContain("Заказ был оплачен: его можно только отменить.");
      expect(page).not.toContain("Удалить заказ</button>");
      const refused = await staff.request(
        `/backoffice/orders/${order.id}/delete`,
        { form: { back: "/backoffice" } }
      );
      expect(toastOf(await follow(staff, refused))).toEqual([
        "Ошибка",
        "Заказ был оплачен: его можно только отменить.",
      ]);
      expect(
        await t.db
          .selectFrom("orders")
          .select("id")
          .where("id", "=", order.id)
          .executeTakeFirst()
      ).toBeDefined();
    }
    expect(
      card(
        rendered(
          await (
            await staff.request(`/backoffice?q=${paid.id.slice(0, 8)}`)
          ).text()
        ),
        paid.id
      )
    ).not.toContain(">Удалить<");
  });

  it("deletes a never-paid order after confirmation, with its files, queue entries and code; payment rows stay", async () => {
    const order = await buildOrderIn(t.db, "pending");
    const patient = await buildPatient(t.db, order.id);
    const key = `order_${order.id}/${patient.folder_name}/aligners/step1_1.stl`;
    await storage.put("orders", key, Readable.from([Buffer.alloc(184)]));
    await t.db
      .insertInto("ftp_uploads_queue")
      .values({
        order_id: order.id,
        patient_id: patient.id,
        file_path: key,
        original_name: "step1.stl",
        destination_path: "/AlignersFactory/x",
        order_prefix: order.code,
        file_type: "aligners",
      })
      .execute();
    await t.db
      .insertInto("payments")
      .values({
        order_id: order.id,
        order_code: order.code,
        provider: "sandbox",
        provider_payment_id: null,
        amount: 1_250_000,
        currency: "rub",
        status: "canceled",
        idempotence_key: `test-${order.id}`,
      })
      .execute();

    const confirm = rendered(
      await (
        await staff.request(
          `/backoffice/orders/${order.id}/delete?back=%2Fbackoffice%3Fempty%3D1`
        )
      ).text()
    );
    expect(confirm).toContain("Вы уверены, что хотите удалить этот заказ?");
    expect(
      await t.db
        .selectFrom("orders")
        .select("id")
        .where("id", "=", order.id)
        .executeTakeFirst()
    ).toBeDefined();

    const deleted = await staff.request(
      `/backoffice/orders/${order.id}/delete`,
      { form: { back: "/backoffice?empty=1" } }
    );
    expect(deleted.headers.get("Location")).toBe("/backoffice?empty=1");
    expect(toastOf(await follow(staff, deleted))).toEqual([
      "Удалено",
      "Заказ удалён вместе с файлами (1)",
    ]);
    expect(
      await t.db
        .selectFrom("orders")
        .select("id")
        .where("id", "=", order.id)
        .executeTakeFirst()
    ).toBeUndefined();
    expect(
      await t.db
        .selectFrom("ftp_uploads_queue")
        .select("id")
        .where("file_path", "=", key)
        .execute()
    ).toEqual([]);
    expect(
      await t.db
        .selectFrom("order_codes")
        .select("code")
        .where("order_id", "=", order.id)
        .execute()
    ).toEqual([]);
    expect(
      await t.db
        .selectFrom("order_codes")
        .select("code")
        .where("code", "=", order.code)
        .execute()
    ).toEqual([]);
    expect(await storage.list("orders", `order_${order.id}/`)).toEqual([]);
    const payment = await t.db
      .selectFrom("payments")
      .select(["order_id", "order_code"])
      .where("idempotence_key", "=", `test-${order.id}`)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ order_id: null, order_code: order.code });
  });

  it("pages by 10 cards, and keeps the payments' actions", async () => {
    for (let index = 0; index < 11; index++)
      await withPatient(await buildOrder(t.db));
    const first = rendered(
      await (await staff.request("/backoffice?status=draft")).text()
    );
    expect(first.match(/<article class="card bo-order"/g)).toHaveLength(
      DASHBOARD_PAGE_SIZE
    );
    // The next page's link carries its keyset cursor (ADR 067).
    const next = /href="(\/backoffice\?status=draft&page=2&after=[\w-]+)"/.exec(
      first
    )?.[1];
    expect(next).toBeDefined();
    const second = rendered(await (await staff.request(next!)).text());
    expect(
      second.match(/<article class="card bo-order"/g)?.length
    ).toBeGreaterThanOrEqual(1);

    const refreshed = await staff.request("/backoffice?index", {
      form: { intent: "refresh_payments" },
    });
    expect(refreshed.status).toBe(302);
  });
});
