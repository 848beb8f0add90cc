import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import { startApp, type TestApp } from "../../support/app";
import { createTestDatabase, databaseUrl, type TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { tusUpload } from "../../support/tus-client";
import { decode, follow, gatePassed, rendered, signedInAs, toastOf, type Browser } from "../backoffice/support";

/**
 * Failures shown where they happen (ADR 026): PostgreSQL refuses one query of a page — the app
 * runs as a role of its own whose privilege on one table (or some of its columns) the test takes
 * away — and the page names the failure in the specification's words while its header, navigation
 * and other sections still render. Saves that fail say so in place and keep what was typed.
 * Each in Russian and in English.
 */

const ROLE = `aligner_refused_${process.pid}`;
const LANGUAGES = [
  { lng: "ru", tab: "Клиенты", cabinet: "Личный кабинет" },
  { lng: "en", tab: "Clients", cabinet: "My account" },
] as const;

function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("binary stl", 0);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

describe("failures shown where they happen", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    await sql.raw(`drop role if exists ${ROLE}`).execute(t.db);
    await sql.raw(`create role ${ROLE} login`).execute(t.db);
    await sql.raw(`grant all on database ${t.name} to ${ROLE}; grant usage, create on schema public to ${ROLE}`).execute(t.db);
    await sql.raw(`grant all on all tables in schema public to ${ROLE}; grant all on all sequences in schema public to ${ROLE}`).execute(t.db);
    // The sandbox payment provider keeps its checkouts in a schema of its own.
    await sql.raw(`grant usage on schema sandbox to ${ROLE}; grant all on all tables in schema sandbox to ${ROLE}`).execute(t.db);
    const url = new URL(databaseUrl(t.name));
    url.username = ROLE;
    app = await startApp({ database: t, env: { DATABASE_URL: url.toString() } });
  });
  afterAll(async () => {
    await app?.close();
    if (t) {
      await sql.raw(`drop owned by ${ROLE}`).execute(t.db);
      await sql.raw(`drop role if exists ${ROLE}`).execute(t.db);
      await t.drop();
    }
  });

  /** Runs `body` while the app may not `privilege` the table (apart from the listed columns). */
  async function refusing(privilege: "select" | "insert" | "update" | "delete", table: string, body: () => Promise<void>, keepColumns: string[] = []) {
    await sql.raw(`revoke ${privilege} on ${table} from ${ROLE}`).execute(t.db);
    if (keepColumns.length) await sql.raw(`grant ${privilege} (${keepColumns.join(", ")}) on ${table} to ${ROLE}`).execute(t.db);
    try {
      await body();
    } finally {
      await sql.raw(`grant ${privilege} on ${table} to ${ROLE}`).execute(t.db);
    }
  }

  async function inLanguage(browser: Browser, lng: string) {
    const response = await browser.request("/language", {
      form: { lng, redirectTo: "/thankyou" },
    });
    expect(response.status).toBe(302);
    return browser;
  }

  const page = async (browser: Browser, url: string) => {
    const response = await browser.request(url);
    expect(response.status, url).toBe(200);
    return rendered(await response.text());
  };

  describe.each(LANGUAGES)("in $lng", ({ lng, tab, cabinet }) => {
    const ru = lng === "ru";

    it("back-office orders: the list says it could not load, statistics, tabs and filters stay", async () => {
      const order = await buildOrderIn(t.db, "paid");
      await buildPatient(t.db, order.id);
      const staff = await inLanguage(await gatePassed(app), lng);
      await refusing(
        "select",
        "orders",
        async () => {
          const html = await page(staff, "/backoffice");
          expect(html).toContain(ru ? "Не удалось загрузить заказы..." : "Could not load the orders...");
          expect(html).toContain(tab);
          // The status tabs and the filter form stay (ADR 066).
          expect(html).toContain('href="/backoffice?status=all"');
          expect(html).toContain('name="q"');
          expect(html).not.toContain(`aria-labelledby="order-${order.id}"`);
        },
        ["id", "status", "total_cost", "currency", "created_at", "paid_at"],
      );
    });

    it("back-office orders: failing patients leave the cards with empty patient lists", async () => {
      const order = await buildOrderIn(t.db, "paid");
      await buildPatient(t.db, order.id, "Сидорова Мария");
      const staff = await inLanguage(await gatePassed(app), lng);
      await refusing(
        "select",
        "orders_patients",
        async () => {
          const html = await page(staff, "/backoffice");
          expect(html).toContain(ru ? "Не удалось загрузить данные пациентов" : "Could not load the patients' data");
          expect(html).toContain(`aria-labelledby="order-${order.id}"`);
          expect(html).not.toContain("Сидорова Мария");
        },
        ["id", "order_id", "patient_name"],
      );
      expect(await page(staff, "/backoffice")).toContain("Сидорова Мария");
    });

    it("files screen: orders' information and the bucket each fail on their own; a folder opens as rows", async () => {
      const order = await buildOrderIn(t.db, "processing");
      const folder = path.join(app.dataDir, "storage", "orders", `order_${order.id}`, `${order.id.slice(0, 4)}_1`, "aligners");
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, "upper_01.stl"), binaryStl(40));
      // The order knows its file: the page's folders come from the orders' lists (ADR 063).
      const key = `order_${order.id}/${order.id.slice(0, 4)}_1/aligners/upper_01.stl`;
      await t.db
        .insertInto("orders_patients")
        .values({ order_id: order.id, patient_name: "Петров Пётр", folder_name: `${order.id.slice(0, 4)}_1`, matrix_files_info: "[]", retainer_files_info: "[]", aligner_files_info: JSON.stringify([{ originalName: "upper_01.stl", storagePath: key, url: `/files/${key}`, type: "model/stl", size: 2084 }]) })
        .execute();
      const staff = await inLanguage(await gatePassed(app), lng);

      const opened = await page(staff, `/backoffice/files?folder=order_${order.id}`);
      expect(opened).toContain(`${order.id.slice(0, 4)}_1/aligners/upper_01.stl`);
      expect(opened).toContain(ru ? "Элайнеры, STL" : "Aligners, STL");
      expect(opened).toMatch(ru ? /2,04\sКБ/ : /2\.04\sKB/);

      await refusing("select", "orders", async () => {
        const html = await page(staff, "/backoffice/files");
        expect(html).toContain(ru ? "Не удалось загрузить информацию о заказах" : "Could not load the orders' information");
        // The folders are the orders': without them none is listed, and nothing can be deleted.
        expect(html).not.toContain(`order_${order.id}`);
        expect(html).not.toContain(ru ? "Удалить мусор" : "Delete trash");
        expect(html).toContain(tab);
      });

      const bucket = path.join(app.dataDir, "storage", "orders");
      // The bucket's folder becomes a link to itself: every listing fails (ELOOP), as a refusing store would.
      fs.renameSync(bucket, `${bucket}.aside`);
      fs.symlinkSync(bucket, bucket);
      try {
        // The list of folders does not read the bucket; an opened folder does, and says so.
        const html = await page(staff, "/backoffice/files");
        expect(html).toContain(`order_${order.id}`);
        expect(html).toContain(tab);
        expect(await page(staff, `/backoffice/files?folder=order_${order.id}`)).toContain(ru ? "Не удалось загрузить файлы" : "Could not load the files");
      } finally {
        fs.rmSync(bucket);
        fs.renameSync(`${bucket}.aside`, bucket);
      }
      expect((await staff.request("/backoffice/files?folder=..%2Fsecrets")).status).toBe(400);
    });

    it("roles: the list says it could not load, the assignment form stays", async () => {
      const admin = await inLanguage(await signedInAs(app, t.db, `admin-${lng}@clinic.ru`, ["admin"]), lng);
      await sql.raw(`revoke execute on function array_position(anycompatiblearray, anycompatible) from public`).execute(t.db);
      try {
        const html = await page(admin, "/backoffice/roles");
        expect(html).toContain(ru ? "Не удалось загрузить список пользователей" : "Could not load the list of users");
        expect(html).toContain('name="email"');
      } finally {
        await sql.raw(`grant execute on function array_position(anycompatiblearray, anycompatible) to public`).execute(t.db);
      }
    });

    it("client conditions: a dialog that cannot load or save says why in words, never the database's message", async () => {
      const email = `conditions-${lng}-${Date.now()}@clinic.ru`;
      await buildOrderIn(t.db, "paid", { email });
      const staff = await inLanguage(await gatePassed(app), lng);
      const cause = ru ? "база данных отклонила запрос" : "the database refused the request";
      // The list reads only the address of the settings; the dialog reads them whole.
      await refusing(
        "select",
        "client_settings",
        async () => {
          const html = await page(staff, `/backoffice/clients?client=${encodeURIComponent(email)}`);
          expect(html).toContain(ru ? `Не удалось загрузить условия: ${cause}` : `Could not load the conditions: ${cause}`);
          expect(html).not.toContain("permission denied");
        },
        ["email"],
      );
      await refusing("insert", "client_settings", async () => {
        const response = await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`, { form: { email, currency: "rub", discount_percentage: "5" } });
        expect(response.status).toBe(500);
        const html = rendered(await response.text());
        expect(html).toContain(ru ? `Не удалось сохранить условия: ${cause}` : `Could not save the conditions: ${cause}`);
        expect(html).not.toContain("permission denied");
      });
    });

    it("affiliates: each partner's orders say they could not load, the partner stays", async () => {
      const code = `F${lng.toUpperCase()}ABCD`.slice(0, 6);
      await t.db
        .insertInto("partner_codes")
        .values({
          code,
          user_email: `partner-${lng}@clinic.ru`,
          user_name: `Партнёр ${lng}`,
        })
        .execute();
      const staff = await inLanguage(await gatePassed(app), lng);
      await refusing("select", "orders", async () => {
        const html = await page(staff, `/backoffice/affiliates?q=${code}`);
        expect(html).toContain(ru ? "Не удалось загрузить заказы аффилиатов" : "Could not load the affiliates' orders");
        expect(html).toContain(code);
      });
    });

    it("translations: the list says what happened, the add form stays", async () => {
      const staff = await inLanguage(await gatePassed(app), lng);
      await refusing(
        "select",
        "translations",
        async () => {
          const html = await page(staff, "/backoffice/translate");
          expect(html).toContain(ru ? "Произошла неожиданная ошибка" : "An unexpected error occurred");
          expect(html).toContain(ru ? "Не удалось загрузить переводы" : "Could not load the translations");
          expect(html).toContain('name="translatedText"');
        },
        ["original_text", "translated_text", "target_language", "source_language", "updated_at"],
      );
    });

    it("cabinet: the orders say they could not load, the channel and new order stay", async () => {
      const email = `cabinet-${lng}@clinic.ru`;
      const order = await buildOrderIn(t.db, "paid", { email });
      await t.db.insertInto("client_settings").values({ email, notification_channel: "whatsapp" }).onConflict((oc) => oc.column("email").doUpdateSet({ notification_channel: "whatsapp" })).execute();
      const client = await inLanguage(await signedInAs(app, t.db, email), lng);
      await refusing("select", "orders", async () => {
        const html = await page(client, "/cabinet");
        expect(html).toContain(ru ? "Ошибка загрузки заказов" : "Error loading orders");
        expect(html).toContain(ru ? "Не удалось загрузить заказы" : "Could not load the orders");
        expect(html).toContain(cabinet);
        // The client's own channel, not the default.
        expect(html).toContain(`<input type="radio" name="channel" checked="" value="whatsapp"/>`);
      });
      expect(await page(client, "/cabinet")).toContain(order.id.slice(0, 6).toUpperCase());
    });

    it("partner: the code and the referral orders each say they could not load", async () => {
      const email = `partner-page-${lng}@clinic.ru`;
      const partner = await inLanguage(await signedInAs(app, t.db, email), lng);
      await partner.request("/partner", { form: { intent: "create" } }); // "Получить партнёрский код"
      await refusing(
        "select",
        "partner_codes",
        async () => {
          const html = await page(partner, "/partner");
          expect(html).toContain(ru ? "Не удалось загрузить партнерский код" : "Could not load the partner code");
          expect(html).toContain('href="/refdoc"');
        },
        ["id", "code", "user_email"],
      );
      await refusing("select", "orders", async () => {
        const html = await page(partner, "/partner");
        expect(html).toContain(ru ? "Ошибка загрузки заказов" : "Error loading orders");
        expect(html).toContain('name="user_name"');
      });
    });

    it("partner name: a failed save says why in place and keeps the typed name", async () => {
      const partner = await inLanguage(await signedInAs(app, t.db, `partner-name-${lng}@clinic.ru`), lng);
      await partner.request("/partner", { form: { intent: "create" } });
      await refusing("update", "partner_codes", async () => {
        const response = await partner.request("/partner", {
          form: { intent: "name", user_name: "Клиника Улыбка" },
        });
        expect(response.status).toBe(500);
        const html = rendered(await response.text());
        expect(html).toContain(ru ? "Не удалось сохранить имя: база данных отклонила запрос" : "Could not save the name: the database refused the request");
        expect(html).toContain('value="Клиника Улыбка"');
      });
    });

    it("sign-out: a session that cannot be ended is said, the person stays signed in", async () => {
      const client = await inLanguage(await signedInAs(app, t.db, `signout-${lng}@clinic.ru`), lng);
      await refusing("delete", "sessions", async () => {
        const response = await client.request("/auth/sign-out", { form: {} });
        expect(response.headers.get("Location")).toBe("/cabinet");
        const html = await follow(client, response);
        expect(toastOf(html)?.map(decode)).toEqual(ru ? ["Ошибка выхода", "Не удалось выйти из системы"] : ["Sign-out error", "Could not sign you out"]);
      });
    });

    it("sign-in link: a mail that cannot be sent is titled 'Ошибка отправки ссылки'", async () => {
      const outbox = path.join(app.dataDir, "outbox");
      const aside = `${outbox}.aside`;
      if (fs.existsSync(outbox)) fs.renameSync(outbox, aside);
      fs.writeFileSync(outbox, "not a folder");
      try {
        const browser = await inLanguage(browserFetch(app), lng);
        const response = await browser.request("/auth", {
          form: { email: `link-${lng}@clinic.ru`, redirectTo: "/cabinet" },
        });
        const html = rendered(await response.text());
        expect(html).toContain(ru ? "Ошибка отправки ссылки" : "Could not send the link");
        expect(html).toContain(`value="link-${lng}@clinic.ru"`);
      } finally {
        fs.rmSync(outbox);
        if (fs.existsSync(aside)) fs.renameSync(aside, outbox);
      }
    });

    it("cabinet: the partner card only for partners; the header's new order starts a fresh order (POST)", async () => {
      const title = ru ? "Партнёрская программа" : "Partner programme";
      const client = await inLanguage(await signedInAs(app, t.db, `no-partner-${lng}@clinic.ru`), lng);
      const html = await page(client, "/cabinet");
      expect(html).not.toContain(title);
      const header = html.slice(html.indexOf('<header class="site-header">'), html.indexOf("</header>"));
      expect(header).toContain('<form method="post" action="/order/new"');
      expect(header).not.toContain('href="/order"');
      await t.db
        .insertInto("partner_codes")
        .values({
          code: `P${lng.toUpperCase()}XYZ`.slice(0, 6),
          user_email: `no-partner-${lng}@clinic.ru`,
        })
        .execute();
      expect(await page(client, "/cabinet")).toContain(title);
    });

    it("writes the client's personal comment into the order at pricing and again at hand-off to payment", async () => {
      const email = `comment-${lng}@clinic.ru`;
      const comment = "Оплата по договору №12, упаковка без логотипа";
      await t.db.insertInto("client_settings").values({ email, personal_comment: comment }).execute();
      const client = await inLanguage(await signedInAs(app, t.db, email), lng);
      expect((await client.request("/order", { form: { intent: "next" } })).status).toBe(302);
      const order = await t.db.selectFrom("orders").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      const patient = await buildPatient(t.db, order.id);
      const file = {
        originalName: "upper.stl",
        storagePath: `order_${order.id}/${patient.folder_name}/matrix/upper.stl`,
        url: "/files/x",
        type: "model/stl",
        size: 184,
      };
      await t.db
        .updateTable("orders_patients")
        // A walked order: the matrix step has its file, the aligner and retainer steps were skipped
        // (payment needs every passed upload step's files stored, ADR 054).
        .set({ matrix_files_info: JSON.stringify([file]), matrix_type: "hard", skip_aligners: true, skip_retainers: true })
        .where("id", "=", patient.id)
        .execute();
      await t.db
        .updateTable("orders")
        .set({
          wizard_step: 11,
          phone: "+7 900 000-00-02",
          full_name: "Петрова Анна",
          address: "Москва, ул. Садовая, 2",
        })
        .where("id", "=", order.id)
        .execute();
      const commentOf = async () => (await t.db.selectFrom("orders").select("additional_comments").where("id", "=", order.id).executeTakeFirstOrThrow()).additional_comments;

      expect((await client.request("/order")).status).toBe(200);
      expect(await commentOf()).toBe(comment);

      // Conditions changed after the summary was priced: the hand-off writes the comment they carry now (customer side §7).
      const changed = "Оплата по договору №14, доставка курьером";
      await t.db.updateTable("client_settings").set({ personal_comment: changed }).where("email", "=", email).execute();
      const pay = await client.request("/order", { form: { intent: "pay" } });
      expect(pay.status).toBe(302);
      expect(pay.headers.get("Location")).toMatch(/\/payment\/sandbox\/sbx_/);
      expect(await commentOf()).toBe(changed);
      expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("pending");
    });

    describe("the order wizard", () => {
      async function draftAt(step: number, withPatient = true) {
        const browser = await inLanguage(browserFetch(app), lng);
        expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
        const order = await t.db.selectFrom("orders").select("id").orderBy("created_at", "desc").executeTakeFirstOrThrow();
        if (withPatient) await buildPatient(t.db, order.id, "Орлова Вера");
        await t.db.updateTable("orders").set({ wizard_step: step }).where("id", "=", order.id).execute();
        return { browser, orderId: order.id };
      }

      async function upload(browser: Browser, name: string, content: Buffer, intent = "upload") {
        const form = new FormData();
        form.append("files", new Blob([new Uint8Array(content)]), name);
        form.append("intent", intent);
        const response = await fetch(`${app.url}/order`, {
          method: "POST",
          body: form,
          headers: { Cookie: browser.jar.header(), Origin: app.url },
          redirect: "manual",
        });
        browser.jar.store(response);
        return response;
      }

      it("a failed update of contacts says so in place and keeps what was typed", async () => {
        const { browser } = await draftAt(2, false);
        await refusing("update", "orders", async () => {
          const response = await browser.request("/order", {
            form: {
              intent: "next",
              email: "typed@clinic.ru",
              phone: "+7 900 111-22-33",
            },
          });
          expect(response.status).toBe(500);
          const html = rendered(await response.text());
          expect(html).toContain(ru ? "Ошибка обновления" : "Update error");
          expect(html).toContain(ru ? "Не удалось сохранить данные: база данных отклонила запрос" : "Could not save the data: the database refused the request");
          expect(html).toContain('value="typed@clinic.ru"');
          expect(html).toContain(ru ? "Шаг 2 из 11" : "Step 2 of 11");
        });
      });

      it("a patient that cannot be added is said, with the name kept", async () => {
        const { browser } = await draftAt(4, false);
        await refusing("insert", "orders_patients", async () => {
          const response = await browser.request("/order", {
            form: { intent: "add_patient", patient_name: "Зайцева Ольга" },
          });
          expect(response.status).toBe(500);
          const html = rendered(await response.text());
          expect(html).toContain(ru ? "Не удалось добавить пациента" : "The patient could not be added");
          expect(html).toContain('value="Зайцева Ольга"');
        });
      });

      it("a file list that cannot be saved is said ('Ошибка сохранения') and nothing is kept", async () => {
        const { browser, orderId } = await draftAt(5);
        await refusing("update", "orders_patients", async () => {
          const response = await upload(browser, "upper.stl", binaryStl(3));
          expect(response.status).toBe(302);
          const html = await follow(browser, response);
          expect(toastOf(html)?.map(decode)).toEqual(
            ru ? ["Ошибка сохранения", "Не удалось сохранить данные файлов матриц в базе данных"] : ["Save error", "Could not save the matrix files' data in the database"],
          );
        });
        expect(fs.existsSync(path.join(app.dataDir, "storage", "orders", `order_${orderId}`))).toBe(false);
      });

      it("a resumable upload whose file list cannot be saved answers 'Ошибка сохранения' and keeps nothing", async () => {
        const { browser, orderId } = await draftAt(5);
        const patient = await t.db.selectFrom("orders_patients").select("id").where("order_id", "=", orderId).executeTakeFirstOrThrow();
        await refusing("update", "orders_patients", async () => {
          const outcome = await tusUpload({
            base: app.url,
            cookie: browser.jar.header(),
            origin: app.url,
            file: binaryStl(5),
            metadata: { filename: "upper.stl", orderId, patientId: patient.id, type: "matrix" },
            retryDelays: null,
          });
          expect(outcome.ok).toBe(false);
          expect(outcome.status).toBe(500);
          expect(outcome.body).toMatchObject({
            ok: false,
            error: "save",
            title: ru ? "Ошибка сохранения" : "Save error",
            message: ru ? "Не удалось сохранить данные файлов матриц в базе данных" : "Could not save the matrix files' data in the database",
          });
        });
        expect(fs.existsSync(path.join(app.dataDir, "storage", "orders", `order_${orderId}`))).toBe(false);
        expect(fs.readdirSync(path.join(app.dataDir, "storage", ".tus")).filter((name) => name.includes(orderId))).toEqual([]);
      });

      it("a file that cannot be deleted from storage is reported to the doctor", async () => {
        const { browser, orderId } = await draftAt(5);
        expect((await upload(browser, "lower.stl", binaryStl(4))).status).toBe(302);
        const patient = await t.db.selectFrom("orders_patients").select("matrix_files_info").where("order_id", "=", orderId).executeTakeFirstOrThrow();
        const stored = (patient.matrix_files_info as Array<{ storagePath: string }>)[0]!.storagePath;
        // The stored file becomes a folder with something in it: the storage refuses to delete it.
        const file = path.join(app.dataDir, "storage", "orders", stored);
        fs.rmSync(file);
        fs.mkdirSync(path.join(file, "kept"), { recursive: true });
        const response = await browser.request("/order", {
          form: { intent: `remove:matrix:${stored}` },
        });
        const html = await follow(browser, response);
        expect(toastOf(html)?.map(decode)).toEqual(ru ? ["Невозможно удалить файл", "Не удалось удалить файл из хранилища"] : ["Unable to delete file", "The file could not be deleted from storage"]);
      });

      it("without JavaScript a wrong format gets its own title, as with JavaScript", async () => {
        const { browser } = await draftAt(5);
        const html = await follow(browser, await upload(browser, "notes.txt", Buffer.from("hello")));
        expect(toastOf(html)?.map(decode)).toEqual(
          ru ? ["Ошибка формата", "1 файл имеет недопустимый формат. Разрешены только файлы .stl, .ply или .obj"] : ["Format error", "1 file has an invalid format. Only .stl, .ply or .obj files are allowed"],
        );
      });

      it("an upload step without a patient says so with the way back instead of moving on", async () => {
        const { browser, orderId } = await draftAt(5, false);
        const html = await page(browser, "/order");
        expect(html).toContain(ru ? "Пациент не выбран или не найден" : "No patient selected or found");
        expect(html).toContain(ru ? "Пожалуйста, вернитесь назад и убедитесь, что пациент добавлен в заказ" : "Please go back and make sure a patient has been added to the order");
        expect(html).toContain(ru ? "Шаг 5 из 11" : "Step 5 of 11");
        expect(html).toContain('value="back_to_patient"');
        expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", orderId).executeTakeFirstOrThrow()).wizard_step).toBe(5);
        await browser.request("/order", {
          form: { intent: "back_to_patient" },
        });
        expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", orderId).executeTakeFirstOrThrow()).wizard_step).toBe(4);
      });

      it("saves the automatically chosen first patient as the order's current patient", async () => {
        const { browser, orderId } = await draftAt(5);
        const first = await t.db.selectFrom("orders_patients").select("id").where("order_id", "=", orderId).executeTakeFirstOrThrow();
        await buildPatient(t.db, orderId, "Второй Пациент");
        expect((await t.db.selectFrom("orders").select("current_patient_id").where("id", "=", orderId).executeTakeFirstOrThrow()).current_patient_id).toBeNull();
        await page(browser, "/order");
        expect((await t.db.selectFrom("orders").select("current_patient_id").where("id", "=", orderId).executeTakeFirstOrThrow()).current_patient_id).toBe(first.id);
      });
    });
  });
});
