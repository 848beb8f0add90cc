import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSLATIONS_PAGE_SIZE } from "~/modules/translations/repository.server";
import { gatePassed, pagerLink, type Browser } from "../backoffice/support";
import { startApp, type TestApp } from "../../support/app";

/**
 * The translation editor pages its overrides with the list kit (ADR 098): a page of
 * TRANSLATIONS_PAGE_SIZE rows, each with its forms, and "Вперёд" a keyset cursor — so a lab with a
 * thousand overrides gets a page of a few dozen, and an override saved while someone pages neither
 * pushes a row onto the next page again nor hides one.
 */
describe("the translation editor's pages", () => {
  let app: TestApp;
  let staff: Browser;

  beforeAll(async () => {
    app = await startApp();
    staff = await gatePassed(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The overrides of a page, in order: each row's delete form names its id. */
  const rowsOf = (html: string) => [...html.matchAll(/name="intent" value="delete"\/><input type="hidden" name="id" value="([0-9a-f-]{36})"/g)].map((match) => match[1]!);

  it("walks every override by the pages' own links, a newer one saved between pages neither repeating a row nor hiding one", async () => {
    const db = app.database.db;
    // 130 overrides changed a minute apart, with microseconds in their times (as now() writes them).
    await sql`insert into translations (original_text, translated_text, target_language, updated_at)
      select 'Текст ' || n, 'Text ' || n, 'en', timestamptz '2026-01-01 10:00:00.123456+00' + n * interval '1 minute' from generate_series(1, 130) n`.execute(db);
    const before = (await db.selectFrom("translations").select("id").execute()).map((row) => row.id);

    const seen: string[] = [];
    let html = await (await staff.request("/backoffice/translate")).text();
    expect(html).toContain(`Показано ${TRANSLATIONS_PAGE_SIZE} из 130`);
    expect(html).toContain(`1–${TRANSLATIONS_PAGE_SIZE} из 130`);
    for (let step = 0; step < 10; step++) {
      const rows = rowsOf(html);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThanOrEqual(TRANSLATIONS_PAGE_SIZE);
      seen.push(...rows);
      const next = pagerLink(html, "next");
      if (!next) break;
      expect(next).toMatch(/[?&]after=/);
      // Someone saves an override meanwhile: it is the newest, at the top of the first page.
      await sql`insert into translations (original_text, translated_text, target_language) values (${`Новый ${step}`}, ${`New ${step}`}, 'en')`.execute(db);
      const response = await staff.request(next);
      expect(response.status, next).toBe(200);
      html = await response.text();
    }
    expect(seen.length, "a row shown twice").toBe(new Set(seen).size);
    expect(before.filter((id) => !seen.includes(id)), "rows missed").toEqual([]);
    // Most recently changed first.
    const newestFirst = (await db.selectFrom("translations").select("id").where("original_text", "like", "Текст %").orderBy("updated_at", "desc").execute()).map((row) => row.id);
    expect(seen).toEqual(newestFirst);

    // Back from the last page is the page before it.
    const previous = pagerLink(html, "prev")!;
    expect(previous).toMatch(/[?&]before=/);
    const lastPage = rowsOf(html).length;
    expect(rowsOf(await (await staff.request(previous)).text())).toEqual(seen.slice(seen.length - lastPage - TRANSLATIONS_PAGE_SIZE, seen.length - lastPage));
    // A search pages the same way, counting what it finds.
    const searched = await (await staff.request(`/backoffice/translate?q=${encodeURIComponent("Text 1")}`)).text();
    // "Text 1", "Text 10"–"Text 19", "Text 100"–"Text 130"
    expect(searched).toContain(`1–${Math.min(42, TRANSLATIONS_PAGE_SIZE)} из 42`);
    expect(pagerLink(searched, "next") !== null).toBe(42 > TRANSLATIONS_PAGE_SIZE);
    // A forged cursor shows the first page.
    expect(rowsOf(await (await staff.request("/backoffice/translate?page=2&after=bm9wZQ")).text())).toHaveLength(TRANSLATIONS_PAGE_SIZE);
    await db.deleteFrom("translations").execute();
  });
});
