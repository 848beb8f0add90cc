import type { DB } from "~/modules/db/db.server";
import { linkOrderToPartner } from "~/modules/orders/customers.server";
import { DEMO, DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL } from "./data";
import { DAY, plus } from "./random";

/** Partners' referrals and payouts, users and roles; the admin user (the marker of a finished seed) last. */
export async function seedPartnersAndStaff(db: DB, now: Date, firstHandOff: Map<string, { orderId: string; at: Date }>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const partners = await trx.selectFrom("partner_codes").select(["id", "code"]).where("code", "in", DEMO.partners.map((p) => p.code)).execute();
    const partnerId = new Map(partners.map((row) => [row.code, row.id]));
    for (const partner of DEMO.partners) {
      const id = partnerId.get(partner.code)!;
      for (const [index, email] of partner.affiliates.entries()) {
        const first = firstHandOff.get(email);
        await trx
          .insertInto("partner_affiliates")
          .values({
            partner_code_id: id,
            affiliate_email: email,
            first_order_id: first?.orderId ?? null,
            created_at: first?.at ?? plus(now, -(7 + index) * DAY),
          })
          .onConflict((oc) => oc.column("affiliate_email").doNothing())
          .execute();
        if (first) await linkOrderToPartner(trx, first.orderId, id);
      }
    }

    // Payouts cover part of what was accrued, so the balance due stays positive.
    for (const partner of DEMO.partners) {
      if (partner.payoutShare <= 0) continue;
      const id = partnerId.get(partner.code)!;
      const balance = await trx.selectFrom("partner_balance_summary").select("accrued_total").where("partner_code_id", "=", id).executeTakeFirst();
      const stats = await trx.selectFrom("partner_affiliate_order_stats").select("first_paid_at").where("partner_code_id", "=", id).execute();
      const accrued = Number(balance?.accrued_total ?? 0);
      const firstPaid = stats.map((row) => row.first_paid_at).filter((date): date is Date => date !== null).sort((a, b) => a.getTime() - b.getTime())[0];
      if (!firstPaid || accrued <= 0) continue;
      // Two payouts: one for the quarter of the first paid referral, one in the current quarter.
      const shares = [partner.payoutShare * 0.6, partner.payoutShare * 0.4];
      const periods = [firstPaid, plus(now, -2 * DAY)];
      for (const [index, share] of shares.entries()) {
        const amount = Math.floor((accrued * share) / 10000) * 10000; // whole hundreds of roubles
        if (amount <= 0) continue;
        const period = periods[index];
        const paidAt = new Date(Math.min(now.getTime() - DAY, Math.max(period.getTime(), firstPaid.getTime()) + 3 * DAY));
        await trx
          .insertInto("partner_payouts")
          .values({
            partner_code_id: id,
            amount,
            currency: "rub",
            period_year: period.getUTCFullYear(),
            period_quarter: Math.floor(period.getUTCMonth() / 3) + 1,
            note: index === 0 ? partner.payoutNote : "Частичная выплата за текущий квартал",
            created_by: DEMO_ADMIN_EMAIL,
            paid_at: paidAt,
          })
          .execute();
      }
    }

    const people = [
      { email: DEMO_MANAGER_EMAIL, role: "manager" as const, createdDaysAgo: 150, signedInDaysAgo: 0.1 },
      { email: "info@ulybka-dental.ru", role: null, createdDaysAgo: 110, signedInDaysAgo: 1 },
      { email: "sadykova@kazan-dent.ru", role: null, createdDaysAgo: 95, signedInDaysAgo: 3 },
      { email: "zakaz@ortodont-pro.ru", role: null, createdDaysAgo: 130, signedInDaysAgo: 0.3 },
      { email: "partner@ortho-nw.ru", role: null, createdDaysAgo: 105, signedInDaysAgo: 12 },
      { email: "garipova.lilia@mail.ru", role: null, createdDaysAgo: 100, signedInDaysAgo: null },
      { email: DEMO_ADMIN_EMAIL, role: "admin" as const, createdDaysAgo: 160, signedInDaysAgo: 0.05 },
    ];
    for (const person of people) {
      const user = await trx
        .insertInto("users")
        .values({
          email: person.email,
          created_at: plus(now, -person.createdDaysAgo * DAY),
          last_sign_in_at: person.signedInDaysAgo === null ? null : plus(now, -Math.round(person.signedInDaysAgo * DAY)),
        })
        .onConflict((oc) => oc.column("email").doUpdateSet({ email: person.email }))
        .returning("id")
        .executeTakeFirstOrThrow();
      if (person.role) {
        await trx
          .insertInto("user_roles")
          .values({ user_id: user.id, role: person.role, created_at: plus(now, -person.createdDaysAgo * DAY) })
          .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
          .execute();
      }
    }
  });
}
