import type { Order, Patient } from "~db/schema";
import type { SessionUser } from "~/modules/auth/session.server";
import type { DB } from "~/modules/db/db.server";
import type { Viewer } from "~/modules/http/request-context.server";
import { previousAttemptLines, providerTexts } from "~/modules/payments/payments.server";
import type { PaymentLine } from "~/modules/payments/provider";
import { calculateOrderPrice, type PriceBreakdown, type PriceInput } from "~/modules/pricing/calculate";
import { paymentLines } from "~/modules/pricing/payment-lines";
import { filesOf } from "~/modules/orders/files.server";
import { isNewCustomer } from "~/modules/orders/customers.server";
import { listPatients } from "~/modules/orders/patients.server";

/**
 * What pricing writes on the order: the total, the discount and, when the client's conditions carry
 * a personal comment, that comment as the order's additional_comments (customer side §7: "update
 * total_cost, updated_at and optional additional_comments (from the client's personal comment)").
 */
export function pricedFields(price: PriceBreakdown) {
  return {
    total_cost: price.total,
    discount_percentage: price.discountPercent,
    updated_at: new Date(),
    ...(price.note !== null ? { additional_comments: price.note } : {}),
  };
}

/** Personal conditions apply only to a signed-in owner of the order's e-mail (DESIGN §4.10). */
export async function priceOf(db: DB, order: Order, patients: Patient[], viewer: Pick<Viewer, "user">): Promise<PriceBreakdown> {
  return calculateOrderPrice(await priceInputOf(db, order, patients, viewer));
}

/**
 * What the order's price is calculated from: its stored files, and the conditions of a signed-in
 * owner. The summary's page adds the files still going up to it in the browser (ADR 054).
 */
export async function priceInputOf(db: DB, order: Order, patients: Patient[], viewer: Pick<Viewer, "user">): Promise<PriceInput> {
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

/**
 * Payment lines for an order paid later (payment link, cabinet): the lines of its last attempt, or
 * the lines recalculated with its e-mail's conditions when they give the same total. The payment
 * service falls back to one line for the whole order when neither adds up.
 */
export async function laterPaymentLines(db: DB, order: Order): Promise<PaymentLine[]> {
  const previous = await previousAttemptLines(db, order);
  if (previous.length) return previous;
  const owner: Pick<Viewer, "user"> = {
    user: order.email ? ({ email: order.email } as SessionUser) : null,
  };
  const price = await priceOf(db, order, await listPatients(db, order.id), owner);
  return price.total === Number(order.total_cost ?? -1) ? paymentLines(price, await providerTexts(order)) : [];
}
