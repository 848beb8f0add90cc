import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isNewCustomer } from "~/modules/orders/customers.server";
import { filesOf } from "~/modules/orders/files.server";
import { calculateOrderPrice, type PriceBreakdown, type PriceInput } from "./calculate";

/**
 * An order's price from what the database holds: its patients' stored files, the new-customer rule and
 * the personal conditions of a signed-in owner (DESIGN §4.10). The wizard prices the summary and the
 * hand-off with it; the payment link and the invoice price an order paid later.
 */

/** Who looks at the order: its owner's personal conditions apply only to them, signed in (a viewer's `user`). */
export interface PriceViewer {
  user: { email: string } | null;
}

/** Personal conditions apply only to a signed-in owner of the order's e-mail (DESIGN §4.10). */
export async function priceOf(db: DB, order: Order, patients: Patient[], viewer: PriceViewer): Promise<PriceBreakdown> {
  return calculateOrderPrice(await priceInputOf(db, order, patients, viewer));
}

/**
 * What the order's price is calculated from: its stored files, and the conditions of a signed-in
 * owner. The summary's page adds the files still going up to it in the browser (ADR 054).
 */
export async function priceInputOf(db: DB, order: Order, patients: Patient[], viewer: PriceViewer): Promise<PriceInput> {
  const verified = Boolean(order.email && viewer.user && viewer.user.email === order.email);
  const conditions = verified ? await db.selectFrom("client_settings").selectAll().where("email", "=", order.email!).executeTakeFirst() : undefined;
  return {
    currency: order.currency,
    conditions: conditions
      ? {
          aligner_price: conditions.aligner_price === null ? null : Number(conditions.aligner_price),
          aligner_single_layer_price: conditions.aligner_single_layer_price === null ? null : Number(conditions.aligner_single_layer_price),
          aligner_three_layer_price: conditions.aligner_three_layer_price === null ? null : Number(conditions.aligner_three_layer_price),
          matrix_price: conditions.matrix_price === null ? null : Number(conditions.matrix_price),
          retainer_standard_price: conditions.retainer_standard_price === null ? null : Number(conditions.retainer_standard_price),
          discount_percentage: conditions.discount_percentage,
          personal_comment: conditions.personal_comment,
          currency: conditions.currency,
        }
      : null,
    isNewCustomer: await isNewCustomer(db, order.email, order.id),
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

/** Whether an anonymous visitor typed an e-mail that has personal conditions (offer to sign in). */
export async function hasPersonalConditions(db: DB, email: string | null) {
  if (!email) return false;
  return Boolean(await db.selectFrom("client_settings").select("email").where("email", "=", email).executeTakeFirst());
}
