import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isNewCustomer } from "~/modules/orders/customers.server";
import { filesOf } from "~/modules/orders/files.server";
import { calculateOrderPrice, type PriceBreakdown, type PriceInput } from "./calculate";

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
