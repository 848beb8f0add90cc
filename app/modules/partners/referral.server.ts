import { getDb } from "~/modules/db/db.server";
import { cookies } from "~/modules/http/request/cookies.server";
import type { Market } from "~/modules/market/market";

/**
 * Referral attribution (DESIGN §4.29, ADR 044). A partner link (`/{code}`, `?partner=`) names a
 * partner; the `partner` cookie keeps it 30 days so the first order of that browser credits the
 * partner. Domestic: set when the link is opened, as the spec says. International: the cookie
 * serves the partner's commission, not the clinic, so it needs consent (ePrivacy Art. 5(3)) — the
 * landing offers it and only the visitor's "remember" sets it.
 */

/** A partner code that exists (six Latin letters, any case; stored upper-case), or null. */
export async function existingPartnerCode(value: string): Promise<string | null> {
  if (!/^[A-Za-z]{6}$/.test(value)) return null;
  const code = value.toUpperCase();
  const row = await (await getDb()).selectFrom("partner_codes").select("code").where("code", "=", code).executeTakeFirst();
  return row?.code ?? null;
}

/**
 * What a partner link does on the landing: the cookie at once on the domestic market, or the code
 * to offer on the international one (null when none is needed: no partner, or this code is `kept`,
 * the one the browser already keeps).
 */
export async function attributePartner(market: Market, partner: string, kept: string | null, headers: Headers): Promise<{ offer: string | null }> {
  if (market === "domestic") {
    headers.append("Set-Cookie", await cookies.partnerCode().serialize(partner));
    return { offer: null };
  }
  return { offer: kept === partner ? null : partner };
}

/** The visitor allowed it: the cookie for a code that exists, else nothing. */
export async function rememberPartnerHeader(value: unknown): Promise<string | null> {
  const code = typeof value === "string" ? await existingPartnerCode(value) : null;
  return code ? cookies.partnerCode().serialize(code) : null;
}
