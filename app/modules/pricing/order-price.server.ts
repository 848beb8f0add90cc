import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isNewCustomer } from "~/modules/orders/customers.server";
import { filesOf } from "~/modules/orders/files.server";
import type { CurrencyCode } from "~/modules/money/format";
import { calculateOrderPrice, type PersonalConditions, type PriceBreakdown, type PriceInput } from "./calculate";
import { PRICE_SETS, type PriceSet } from "./price-sets";

/**
 * An order's price from what the database holds: its patients' stored files, and for a signed-in
 * owner their personal conditions and the new-customer rule (DESIGN §4.10). The wizard prices the
 * summary and the hand-off with it; the payment link and the invoice price an order paid later.
 */

/** Who looks at the order: its owner's personal conditions apply only to them, signed in (a viewer's `user`). */
export interface PriceViewer {
  user: { email: string } | null;
  /**
   * The price the order is handed off to payment at (ADR 083): the new-customer rule is then looked
   * up for every viewer — money follows the address's history, whoever typed it — while the summary
   * shown to a viewer not signed in with the address says nothing of that history.
   */
  settling?: boolean;
}

/** Whether the viewer is signed in with the order's e-mail: only then does the price read anything of that e-mail. */
export function isSignedInOwner(order: Pick<Order, "email">, viewer: PriceViewer): boolean {
  return Boolean(order.email && viewer.user && viewer.user.email === order.email);
}

/** Personal conditions apply only to a signed-in owner of the order's e-mail (DESIGN §4.10). */
export async function priceOf(db: DB, order: Order, patients: Patient[], viewer: PriceViewer): Promise<PriceBreakdown> {
  return calculateOrderPrice(await priceInputOf(db, order, patients, viewer));
}

/**
 * What the order's price is calculated from: its stored files, and the conditions of a signed-in
 * owner. The summary's page adds the files still going up to it in the browser (ADR 054).
 *
 * For anyone else the summary says nothing about the typed e-mail (ADR 083): no conditions, and the
 * new-customer rule is not looked up — such an order is shown priced as a first order, the same for
 * an address that has ordered as for a fresh one. Otherwise typing an address would show whether it
 * has ever ordered (3 points of discount, or none). The hand-off (`settling`) applies the rule.
 */
export async function priceInputOf(db: DB, order: Order, patients: Patient[], viewer: PriceViewer): Promise<PriceInput> {
  const verified = isSignedInOwner(order, viewer);
  return {
    currency: order.currency,
    conditions: verified ? await conditionsOf(db, order.email!) : null,
    isNewCustomer: verified || viewer.settling ? await isNewCustomer(db, order.email, order.id) : true,
    patients: patients.map((patient) => ({
      id: patient.id,
      name: patient.patient_name,
      materialType: patient.material_type,
      matrixType: patient.matrix_type,
      alignerFiles: patient.skip_aligners ? 0 : filesOf(patient, "aligners").length,
      matrixFiles: patient.skip_matrix ? 0 : filesOf(patient, "matrix").length,
      retainerFiles: patient.skip_retainers ? 0 : filesOf(patient, "retainer").length,
    })),
  };
}

/** A client's stored conditions as the price calculation reads them, or null when there are none. */
export async function conditionsOf(db: DB, email: string): Promise<PersonalConditions | null> {
  const conditions = await db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirst();
  if (!conditions) return null;
  return {
    aligner_price: conditions.aligner_price === null ? null : Number(conditions.aligner_price),
    aligner_single_layer_price: conditions.aligner_single_layer_price === null ? null : Number(conditions.aligner_single_layer_price),
    aligner_three_layer_price: conditions.aligner_three_layer_price === null ? null : Number(conditions.aligner_three_layer_price),
    matrix_price: conditions.matrix_price === null ? null : Number(conditions.matrix_price),
    retainer_standard_price: conditions.retainer_standard_price === null ? null : Number(conditions.retainer_standard_price),
    discount_percentage: conditions.discount_percentage,
    personal_comment: conditions.personal_comment,
    currency: conditions.currency,
  };
}

/**
 * The price list a viewer sees on step 1 and on the landing: the base set, with the unit prices of a
 * signed-in client's personal conditions put in — read from the same calculation the summary prices
 * an order with (an order without goods), so the list and the summary cannot disagree.
 * `personal` says some price differs from the base set ("Ваши цены").
 */
export async function priceListFor(db: DB, currency: CurrencyCode, email: string | null | undefined): Promise<{ priceSet: PriceSet; personal: boolean }> {
  const base = PRICE_SETS[currency];
  const conditions = email ? await conditionsOf(db, email) : null;
  if (!conditions) return { priceSet: base, personal: false };
  const { unitPrices } = calculateOrderPrice({ currency, conditions, isNewCustomer: false, patients: [] });
  const priceSet: PriceSet = {
    ...base,
    singleLayerMaterial: unitPrices.singleLayer,
    threeLayerMaterial: unitPrices.threeLayer,
    // The summary charges both kinds of matrix at the one matrix price (calculate.ts).
    softMatrix: unitPrices.matrix,
    hardMatrix: unitPrices.matrix,
    retainer: unitPrices.retainer,
    delivery: unitPrices.delivery,
  };
  const keys = ["singleLayerMaterial", "threeLayerMaterial", "softMatrix", "hardMatrix", "retainer", "delivery"] as const;
  return { priceSet, personal: keys.some((key) => priceSet[key] !== base[key]) };
}
