import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { listClients, parseClientFilter, type ClientRow } from "~/modules/backoffice/clients.server";
import { listDashboardOrders, parseDashboardFilter } from "~/modules/backoffice/dashboard.server";
import { decodeCursor } from "~/modules/http/request/list-query";
import { listCabinetOrders } from "~/modules/orders/cabinet-orders.server";
import { parsePackerFilter } from "~/modules/packer/filter";
import { listPackerOrders } from "~/modules/packer/packer.server";
import { listPartners, partnerDetails } from "~/modules/partners/affiliates.server";
import { partnerBalance, referralCounts } from "~/modules/partners/partners.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";

/**
 * The searches and figures of ADR 042 find and add up what the full scans they replaced found, on
 * a database big enough for the planner to use the indexes: 20,000 older orders with 60,000
 * patients from SQL, the orders to look for built through the state machine beside them. Each
 * expectation is computed here from the rows themselves (a full scan, or plain arithmetic).
 */

const PAID = ["paid", "processing", "shipped", "completed"];

describe("searches and figures at scale", () => {
  let t: TestDatabase;
  let clinicA: { id: string; code: string };
  let draftA: { id: string };
  let clinicB: { id: string };
  let ancient: { id: string };

  beforeAll(async () => {
    t = await createTestDatabase(4);
    const db = t.db;
    // 20,000 orders of 400 clinics over five years, 3 patients each; all older than the orders below.
    await sql`
      insert into orders (id, code, status, market, currency, email, full_name, phone, total_cost, paid_at, created_at, updated_at, tracking_number, wizard_step)
      select id, substr(id::text, 1, 4), st, 'domestic', case when n % 9 = 0 then 'eur' else 'rub' end,
             'bulk' || (n % 400) || '@clinic.test',
             (array['Анна','Иван','John','Maria'])[1 + n % 4] || ' ' || (array['Петрова','Smith','Кузнецов','Rossi','Волков'])[1 + n % 5] || ' ' || n,
             '+7 901 ' || lpad(n::text, 7, '0'), 100000 + n,
             case when st in ('paid','processing','shipped','completed') then created + interval '1 hour' end,
             created, created, case when st = 'shipped' then 'T' || n end, 11
        from (select n, gen_random_uuid() as id,
                     (array['draft','pending','paid','processing','shipped','completed','cancelled'])[1 + n % 7] as st,
                     now() - interval '5 years' + make_interval(secs => n * 7850) as created
                from generate_series(1, 20000) n) g`.execute(db);
    await sql`
      insert into orders_patients (order_id, patient_name, folder_name, created_at)
      select o.id, (array['Ольга','Пётр','Lucia','Hans'])[1 + (k + x) % 4] || ' ' || (array['Соколова','Müller','Егоров','Bianchi'])[1 + (k * 3 + x) % 4] || ' ' || k,
             x || '_p', o.created_at
        from (select id, created_at, row_number() over (order by created_at) as k from orders) o cross join generate_series(1, 3) x`.execute(db);
    // Every third order has two more patients of one common name: thousands of matches, two per order.
    await sql`
      insert into orders_patients (order_id, patient_name, folder_name, created_at)
      select o.id, 'Дубль Двойной ' || x, x || '_p', o.created_at
        from (select id, created_at, row_number() over (order by created_at) as k from orders) o cross join generate_series(4, 5) x
       where o.k % 3 = 0 order by o.k, x`.execute(db);
    // One order beyond the short-search window (the 10,000 newest), with a name found only by three characters or more.
    ancient = (await sql<{ id: string }>`select id from orders where created_at = (select min(created_at) from orders)`.execute(db)).rows[0]!;
    await db.updateTable("orders").set({ full_name: "Qxz Древний", status: "completed", paid_at: sql<Date>`created_at` }).where("id", "=", ancient.id).execute();

    // Clinic A: the orders to find.
    const a = await buildOrderIn(db, "paid", { email: "mariya.yolkina@clinic-a.test", fullName: "Ёлкина Мария Сергеевна", phone: "+7 912 345-67-89" });
    clinicA = { id: a.id, code: a.code };
    await buildPatient(db, a.id, "Сидоров Пётр");
    await buildPatient(db, a.id, "John O'Neil Smith");
    const otherA = await buildOrderIn(db, "completed", { email: "mariya.yolkina@clinic-a.test", fullName: "Ёлкина Мария Сергеевна", phone: "+7 912 345-67-89" });
    await buildPatient(db, otherA.id, "Анна Белова");
    draftA = await buildOrderIn(db, "draft", { email: "mariya.yolkina@clinic-a.test", fullName: "Ёлкина Мария Сергеевна" });
    await buildPatient(db, draftA.id, "Сидоров Пётр");
    // Clinic B has a patient of the same name: never in clinic A's cabinet.
    clinicB = await buildOrderIn(db, "processing", { email: "clinic-b@clinic.test", fullName: "Другой Доктор", phone: "+7 999 000-00-00" });
    await buildPatient(db, clinicB.id, "Сидоров Пётр");
    await sql`analyze`.execute(db);
  }, 240_000);
  afterAll(async () => {
    await t?.drop();
  });

  /** The old search, as a full scan: code or id prefix, or any of the columns or a patient containing the text, any case. */
  async function scanned(text: string, options: { phone: boolean; where: string; limit: number }) {
    const prefix = text.trim().replace(/^[#№]\s*/, "").toLowerCase();
    const idPrefix = /^[0-9a-f-]+$/.test(prefix) ? `${prefix}%` : null;
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await sql<{ id: string }>`
      select o.id from orders o
       where ${sql.raw(options.where)}
         and (o.id::text like ${idPrefix} or o.full_name ilike ${pattern} or o.email ilike ${pattern}
              or (${options.phone} and o.phone ilike ${pattern})
              or exists (select 1 from orders_patients p where p.order_id = o.id and p.patient_name ilike ${pattern}))
       order by o.created_at desc, o.id limit ${options.limit}`.execute(t.db);
    return rows.rows.map((row) => row.id);
  }

  /** The dashboard's page `page` of a search, reached as its pager reaches it: by each page's "next" cursor (ADR 091). */
  const dashboardIds = async (q: string, extra = "", page = 1) => {
    const filter = parseDashboardFilter(new URLSearchParams(`q=${encodeURIComponent(q)}${extra}`));
    let listed = await listDashboardOrders(t.db, filter);
    for (let n = 2; n <= page; n++) listed = await listDashboardOrders(t.db, { ...filter, page: n, after: decodeCursor(listed.cursors.next), before: null });
    return listed.cards.map((order) => order.id);
  };
  const packerIds = async (q: string) => (await listPackerOrders(t.db, parsePackerFilter(new URLSearchParams({ q, view: "all" })))).orders.map((order) => order.id);

  const TERMS = [
    ["the order code", () => clinicA.code],
    ["the code with # in capitals", () => `#${clinicA.code.toUpperCase()}`],
    ["an id prefix of 8", () => clinicA.id.slice(0, 8)],
    ["an id prefix across a hyphen", () => clinicA.id.slice(0, 11)],
    ["the whole id", () => clinicA.id],
    ["a part of the e-mail", () => "yolkina@clinic"],
    ["a part of the e-mail in capitals", () => "YOLKINA@CLINIC-A"],
    ["a Cyrillic client name in capitals", () => "ЁЛКИНА МАРИЯ"],
    ["a Cyrillic patient name in small letters", () => "сидоров пётр"],
    ["a Latin patient name with an apostrophe", () => "o'neil SMITH"],
    ["a name in the generated orders", () => "Rossi 11"],
    ["a generated patient", () => "Соколова 777"],
    ["a common patient name, twice on many orders", () => "ДУБЛЬ двойной"],
    ["a common client name", () => "анна"],
  ] as const;

  describe.each(TERMS)("back-office and packer find %s", (_label, term) => {
    it("as the full scan does, on the first and a later page", async () => {
      const q = term();
      const expected = await scanned(q, { phone: true, where: "exists (select 1 from orders_patients e where e.order_id = o.id)", limit: 10 });
      expect(expected.length).toBeGreaterThan(0);
      expect(await dashboardIds(q)).toEqual(expected);
      const second = await scanned(q, { phone: true, where: "exists (select 1 from orders_patients e where e.order_id = o.id)", limit: 20 });
      expect(await dashboardIds(q, "", 2)).toEqual(second.slice(10));
      expect(await packerIds(q)).toEqual(await scanned(q, { phone: false, where: "o.status <> 'draft'", limit: 50 }));
    });
  });

  it("finds clinic A's orders by what it typed, and only the packer leaves the phone out", async () => {
    expect(await dashboardIds(clinicA.code)).toContain(clinicA.id);
    expect(await dashboardIds("сидоров пётр")).toEqual(expect.arrayContaining([clinicA.id, clinicB.id, draftA.id]));
    expect(await dashboardIds("345-67-89")).toContain(clinicA.id);
    expect(await dashboardIds("345-67-89")).toEqual(await scanned("345-67-89", { phone: true, where: "exists (select 1 from orders_patients e where e.order_id = o.id)", limit: 10 }));
    expect(await packerIds("345-67-89")).toEqual([]);
    expect(await packerIds("сидоров пётр")).not.toContain(draftA.id);
    // A control character typed or pasted into the box is dropped, not sent to PostgreSQL (which refuses a NUL).
    expect(await dashboardIds("сидоров\u0000 пётр")).toEqual(await dashboardIds("сидоров пётр"));
  });

  it("narrows the search by status as before", async () => {
    const q = "Smith";
    const expected = await scanned(q, { phone: true, where: "o.status = 'shipped' and exists (select 1 from orders_patients e where e.order_id = o.id)", limit: 10 });
    expect(expected.length).toBe(10);
    expect(await dashboardIds(q, "&status=shipped")).toEqual(expected);
  });

  it("looks for one or two characters among the newest 10,000 orders, and for a code prefix among all", async () => {
    expect(await dashboardIds("Ёл")).toContain(clinicA.id);
    expect(await dashboardIds("qx")).not.toContain(ancient.id);
    expect(await dashboardIds("qxz")).toEqual([ancient.id]);
    // A prefix of two letters no name, e-mail or patient here contains: what it finds is found by the code, far past the window.
    for (const prefix of ["dd", "df", "fd", "ff"]) {
      const all = (await sql<{ id: string; created_at: Date }>`select id, created_at from orders o where code like ${`${prefix}%`} and exists (select 1 from orders_patients e where e.order_id = o.id) order by created_at desc, id`.execute(t.db)).rows;
      const oldest = all.length - 1;
      const page = Math.floor(oldest / 10) + 1;
      expect(await dashboardIds(prefix, "", page)).toEqual(all.slice((page - 1) * 10, page * 10).map((row) => row.id));
      expect(oldest).toBeGreaterThan(0);
      const windowStart = (await sql<{ at: Date }>`select created_at as at from orders order by created_at desc offset 9999 limit 1`.execute(t.db)).rows[0]!.at;
      expect(all[oldest]!.created_at.getTime()).toBeLessThan(windowStart.getTime());
    }
  });

  describe("the cabinet", () => {
    const cabinetIds = async (search: string) => (await listCabinetOrders(t.db, "mariya.yolkina@clinic-a.test", { search, status: null, sort: "newest", after: null })).map((order) => order.id);

    it("finds the clinic's own orders by a patient or the client's name, any case, and never another clinic's or a draft", async () => {
      expect(await cabinetIds("СИДОРОВ")).toEqual([clinicA.id]);
      expect(await cabinetIds("o'neil")).toEqual([clinicA.id]);
      expect((await cabinetIds("ёлкина")).sort()).toEqual((await sql<{ id: string }>`select id from orders where email = 'mariya.yolkina@clinic-a.test' and status <> 'draft'`.execute(t.db)).rows.map((row) => row.id).sort());
      expect(await cabinetIds("Другой")).toEqual([]);
      expect(await cabinetIds("Соколова 777")).toEqual([]);
    });
  });

  describe("the clients page", () => {
    /** The old grouping of every order by e-mail, computed in TypeScript from the rows. */
    async function grouped(filter: { search: string; showAll: boolean }): Promise<ClientRow[]> {
      const rows = await t.db.selectFrom("orders").select(["email", "full_name", "status", "paid_at", "total_cost", "currency", "created_at"]).where("email", "is not", null).execute();
      const clients = new Map<string, typeof rows>();
      for (const row of rows) clients.set(row.email!, [...(clients.get(row.email!) ?? []), row]);
      const now = Date.now();
      const recent = (row: (typeof rows)[number]) => PAID.includes(row.status) && row.paid_at !== null && row.paid_at.getTime() >= now - 30 * 86_400_000;
      const search = filter.search.toLowerCase();
      return [...clients.entries()]
        .map(([email, orders]) => {
          const newest = [...orders].sort((x, y) => y.created_at.getTime() - x.created_at.getTime());
          const sum = (currency: string) => orders.filter((row) => recent(row) && row.currency === currency).reduce((total, row) => total + Number(row.total_cost), 0);
          return {
            email,
            name: newest.find((row) => (row.full_name ?? "").trim() !== "")?.full_name ?? null,
            orders: orders.length,
            everPaid: orders.some((row) => PAID.includes(row.status)),
            paidLast30: [
              { currency: "rub" as const, amount: sum("rub") },
              { currency: "eur" as const, amount: sum("eur") },
            ].filter((entry) => entry.amount > 0),
            lastOrderAt: newest[0]!.created_at,
            hasConditions: false,
            names: orders.map((row) => (row.full_name ?? "").toLowerCase()),
          };
        })
        .filter((client) => (search ? client.email.includes(search) || client.names.some((name) => name.includes(search)) : filter.showAll || client.everPaid))
        .sort((x, y) => y.lastOrderAt.getTime() - x.lastOrderAt.getTime() || (x.email < y.email ? -1 : 1))
        .map(({ names: _names, ...client }) => client);
    }

    /** The clients' page `n` of the address, reached as its pager reaches it: by each page's "next" cursor (ADR 091). */
    const page = async (query: string, n = 1) => {
      const filter = parseClientFilter(new URLSearchParams(query));
      let listed = await listClients(t.db, filter);
      for (let at = 2; at <= n; at++) listed = await listClients(t.db, { ...filter, page: at, after: decodeCursor(listed.cursors.next), before: null });
      return listed;
    };

    it("pages the clients with payments, everyone, and a search of e-mails and names as the grouping did", async () => {
      const withPayments = await grouped({ search: "", showAll: false });
      expect((await page("")).clients).toEqual(withPayments.slice(0, 50));
      expect((await page("", 3)).clients).toEqual(withPayments.slice(100, 150));
      const everyone = await grouped({ search: "", showAll: true });
      expect((await page("all=1", 2)).clients).toEqual(everyone.slice(50, 100));
      for (const search of ["yolkina", "ЁЛКИНА", "bulk12", "Rossi 1", "Другой"]) {
        expect((await page(`q=${encodeURIComponent(search)}`)).clients).toEqual((await grouped({ search, showAll: true })).slice(0, 50));
      }
    });

    it("keeps the summary right through new orders, payments, a changed e-mail and deletions", async () => {
      const order = await buildOrderIn(t.db, "pending", { email: "moving@clinic.test", fullName: "Переезд" });
      await buildOrderIn(t.db, "completed", { email: "moving@clinic.test" });
      await t.db.updateTable("orders").set({ status: "paid", paid_at: new Date() }).where("id", "=", order.id).execute();
      await t.db.updateTable("orders").set({ email: "moved@clinic.test" }).where("id", "=", order.id).execute();
      await sql`update orders set created_at = created_at - interval '3 years' where email = 'bulk7@clinic.test'`.execute(t.db);
      await t.db.deleteFrom("orders").where("email", "=", "bulk8@clinic.test").execute();
      await t.db.deleteFrom("orders").where("id", "=", (await t.db.selectFrom("orders").select("id").where("email", "=", "bulk9@clinic.test").orderBy("created_at", "desc").limit(1).executeTakeFirstOrThrow()).id).execute();
      const summary = await sql`select email, orders_count, paid_orders_count, last_order_at from client_summaries order by email`.execute(t.db);
      const expected = await sql`
        select email, count(*)::int as orders_count, (count(*) filter (where status in ('paid','processing','shipped','completed')))::int as paid_orders_count, max(created_at) as last_order_at
          from orders where email is not null group by email order by email`.execute(t.db);
      expect(summary.rows).toEqual(expected.rows);
      expect(summary.rows.some((row) => (row as { email: string }).email === "bulk8@clinic.test")).toBe(false);
      expect((await page("q=moved%40")).clients.map((client) => [client.email, client.orders, client.everPaid])).toEqual([["moved@clinic.test", 1, true]]);
    });
  });

  describe("the partner figures", () => {
    const partners: Array<{ id: string; percentage: number }> = [];

    beforeAll(async () => {
      // 25 partners; partner 0 refers 40 clinics, the others 2 each; paid orders over three years in both currencies.
      for (let p = 0; p < 25; p++) {
        const percentage = p === 3 ? 12.5 : 10;
        const row = await t.db
          .insertInto("partner_codes")
          .values({ code: `PQ${String.fromCharCode(65 + (p % 26))}${String.fromCharCode(65 + Math.floor(p / 26))}ZZ`, user_email: `partner${p}@partner.test`, reward_percentage: percentage, created_at: new Date(Date.UTC(2025, 0, 1 + p)) })
          .returning("id")
          .executeTakeFirstOrThrow();
        partners.push({ id: row.id, percentage });
      }
      let clinic = 0;
      for (const [index, partner] of partners.entries()) {
        for (let r = 0; r < (index === 0 ? 40 : 2); r++, clinic++) {
          await t.db.insertInto("partner_affiliates").values({ partner_code_id: partner.id, affiliate_email: `ref${clinic}@clinic.test` }).execute();
        }
        await t.db.insertInto("partner_payouts").values({ partner_code_id: partner.id, amount: 1000 + index, currency: "rub", period_year: 2025, period_quarter: 1, created_by: "staff" }).execute();
      }
      await sql`
        insert into orders (id, code, status, market, currency, email, full_name, total_cost, paid_at, created_at, updated_at, tracking_number, wizard_step)
        select id, substr(id::text, 1, 4), st, 'domestic', case when n % 5 = 0 then 'eur' else 'rub' end, 'ref' || (n % ${clinic}) || '@clinic.test', 'Ref ' || n,
               50000 + n * 7, case when st in ('paid','processing','shipped','completed','cancelled') then created + interval '3 hours' end, created, created,
               case when st = 'shipped' then 'T' || n end, 11
          from (select n, gen_random_uuid() as id, (array['draft','pending','paid','processing','shipped','completed','cancelled'])[1 + n % 7] as st,
                       now() - interval '3 years' + make_interval(secs => n * 37000) as created
                  from generate_series(1, 2500) n) g`.execute(t.db);
      await sql`analyze`.execute(t.db);
    });

    /** PostgreSQL's `+ interval '1 year'` in UTC: the same day and time a year later, 29 February becoming the 28th. */
    function aYearAfter(at: Date): Date {
      const day = Math.min(at.getUTCDate(), new Date(Date.UTC(at.getUTCFullYear() + 1, at.getUTCMonth() + 1, 0)).getUTCDate());
      return new Date(Date.UTC(at.getUTCFullYear() + 1, at.getUTCMonth(), day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()));
    }

    /** Each referral's figures and each partner's balance worked out from the orders, as ADR 015 states them. */
    async function worked() {
      const affiliates = await t.db.selectFrom("partner_affiliates").select(["partner_code_id", "affiliate_email"]).execute();
      const orders = await t.db.selectFrom("orders").select(["email", "status", "paid_at", "currency", "total_cost"]).where("email", "like", "ref%").execute();
      const payouts = await t.db.selectFrom("partner_payouts").select(["partner_code_id", "amount"]).execute();
      const referrals = affiliates.map((affiliate) => {
        const paid = orders.filter((order) => order.email === affiliate.affiliate_email && PAID.includes(order.status) && order.paid_at !== null);
        const first = paid.length ? new Date(Math.min(...paid.map((order) => order.paid_at!.getTime()))) : null;
        const expires = first ? aYearAfter(first) : null;
        const rub = paid.filter((order) => order.currency === "rub");
        return {
          partner: affiliate.partner_code_id,
          email: affiliate.affiliate_email,
          firstPaidAt: first?.toISOString() ?? null,
          expiresAt: expires?.toISOString() ?? null,
          ordersCount: rub.length,
          ordersSum: rub.reduce((sum, order) => sum + Number(order.total_cost), 0),
          eligibleSum: rub.filter((order) => order.paid_at! < expires!).reduce((sum, order) => sum + Number(order.total_cost), 0),
          active: expires === null || Date.now() < expires.getTime(),
        };
      });
      const balances = new Map(
        partners.map((partner) => {
          const eligible = referrals.filter((referral) => referral.partner === partner.id).reduce((sum, referral) => sum + referral.eligibleSum, 0);
          const accrued = Math.round((eligible * partner.percentage) / 100);
          const paid = payouts.filter((payout) => payout.partner_code_id === partner.id).reduce((sum, payout) => sum + Number(payout.amount), 0);
          return [partner.id, { accrued, paid, due: accrued - paid }];
        }),
      );
      return { referrals, balances };
    }

    it("gives the back-office page the balances, referral sums and referrals the full join gave", async () => {
      const { referrals, balances } = await worked();
      // The second page as its pager reaches it: after the first page's last partner (ADR 091).
      const first = await listPartners(t.db, { search: "", pageSize: 20, after: null, before: null });
      const second = await listPartners(t.db, { search: "", pageSize: 20, after: decodeCursor(first.cursors.next), before: null });
      const listed = [...first.partners, ...second.partners];
      expect(listed.map((partner) => partner.id)).toEqual(partners.map((partner) => partner.id));
      for (const partner of listed) {
        const own = referrals.filter((referral) => referral.partner === partner.id);
        expect(partner.balance).toEqual(balances.get(partner.id));
        expect(partner.referralsCount).toBe(own.length);
        expect(partner.referralsSum).toBe(own.reduce((sum, referral) => sum + referral.ordersSum, 0));
      }
      const details = await partnerDetails(t.db, [partners[0]!.id, partners[3]!.id]);
      for (const id of [partners[0]!.id, partners[3]!.id]) {
        const own = referrals.filter((referral) => referral.partner === id);
        expect([...details.get(id)!.referrals].sort((x, y) => (x.email < y.email ? -1 : 1))).toEqual(own.map(({ partner: _partner, ...referral }) => referral).sort((x, y) => (x.email < y.email ? -1 : 1)));
        const latest = (await sql<{ id: string }>`
          select o.id from orders o join partner_affiliates a on a.affiliate_email = o.email
           where a.partner_code_id = ${id} and o.status <> 'draft' order by o.created_at desc, o.id limit 50`.execute(t.db)).rows.map((row) => row.id);
        expect(details.get(id)!.orders.map((order) => order.id)).toEqual(latest);
      }
      expect(details.get(partners[0]!.id)!.orders).toHaveLength(50);
    });

    it("gives the partner page its balance and referral counts", async () => {
      const { referrals, balances } = await worked();
      for (const partner of [partners[0]!, partners[3]!, partners[24]!]) {
        expect(await partnerBalance(t.db, partner.id)).toEqual(balances.get(partner.id));
        const own = referrals.filter((referral) => referral.partner === partner.id);
        expect(await referralCounts(t.db, partner.id)).toEqual({ total: own.length, active: own.filter((referral) => referral.active).length });
      }
    });
  });
});
