import { type ExpressionBuilder, sql } from "kysely";
import type { Database, Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { normalizeEmail } from "~/modules/validation/email";

/**
 * Untouched drafts (DESIGN §4.6, docs/decisions/038-order-code-space.md): a draft that holds no
 * contact or delivery data and no patient — nothing anyone typed — costs only its order code. A
 * browser that has one gets it back instead of a new draft, and housekeeping deletes it (its code
 * goes with it) once it has lain untouched for a day, instead of the month of other drafts. A
 * signed-in client's draft is born with the contacts of their last order: until a form saves them
 * (`contacts_prefilled`), nobody has typed them, and the draft is untouched too (ADR 082).
 */

export const UNTOUCHED_DRAFT_HOURS = 24;
/**
 * Untouched drafts deleted per housekeeping run at most: a run every minute (144,000 a day) outpaces
 * any creation rate the address limit allows, and a batch's foreign-key cascades stay within the
 * run's budget (bench/RESULTS.md, "Retention in bounded passes").
 */
export const UNTOUCHED_DRAFTS_PER_RUN = 100;

function isUntouchedDraft(eb: ExpressionBuilder<Database, "orders">) {
  // The same expressions as the partial index `orders_untouched_draft_idx`, so its planner finds it.
  return eb.and([
    eb("orders.status", "=", sql.lit("draft")),
    eb("orders.delivery_comment", "is", null),
    eb.or([
      eb("orders.contacts_prefilled", "=", sql.lit(true)),
      eb.and([eb("orders.email", "is", null), eb("orders.phone", "is", null), eb("orders.full_name", "is", null), eb("orders.address", "is", null)]),
    ]),
    eb.not(eb.exists(eb.selectFrom("orders_patients").select("orders_patients.id").whereRef("orders_patients.order_id", "=", "orders.id"))),
  ]);
}

export interface ReusedDraftFields {
  /** The step it opens at, as a new draft would. */
  wizardStep: number;
  language: Order["language"];
  /** A signed-in client's last contacts, as a new draft would be filled with. */
  email?: string | null;
  phone?: string | null;
  fullName?: string | null;
  address?: string | null;
}

/**
 * The most recent untouched draft of `browserOrderIds` in `market`, opened again as if new: one
 * statement, which re-checks that it is still untouched, so a draft edited or deleted meanwhile is
 * never taken. Undefined when the browser has none.
 */
export async function reuseUntouchedDraft(db: DB, browserOrderIds: readonly string[], market: Order["market"], fields: ReusedDraftFields): Promise<Order | undefined> {
  if (browserOrderIds.length === 0) return undefined;
  return db
    .updateTable("orders")
    .set({
      wizard_step: fields.wizardStep,
      language: fields.language,
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      full_name: fields.fullName ?? null,
      address: fields.address ?? null,
      contacts_prefilled: [fields.email, fields.phone, fields.fullName, fields.address].some((value) => value != null),
      updated_at: sql<Date>`now()`,
    })
    .where((eb) =>
      eb(
        "orders.id",
        "=",
        eb
          .selectFrom("orders")
          .select("orders.id")
          .where("orders.id", "in", [...browserOrderIds])
          .where("orders.market", "=", market)
          .where(isUntouchedDraft)
          .orderBy("orders.created_at", "desc")
          .limit(1),
      ),
    )
    .where(isUntouchedDraft)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Deletes drafts untouched for `UNTOUCHED_DRAFT_HOURS` (a bounded batch per run); their codes and
 * history go with them (foreign keys). They have no files: files belong to patients. One pass: the
 * batch's ids are chosen once (`= any(array(…))` is an InitPlan; `in (select … limit n)` let the
 * planner, expecting one row, re-run the subquery for every draft: 2.85 s at five years, issue 45),
 * and each draft is checked again as it is deleted, so one typed into meanwhile stays.
 */
export async function purgeUntouchedDrafts(db: DB, limit = UNTOUCHED_DRAFTS_PER_RUN): Promise<number> {
  const cutoff = sql<Date>`now() - make_interval(hours => ${UNTOUCHED_DRAFT_HOURS})`;
  const batch = db.selectFrom("orders").select("orders.id").where(isUntouchedDraft).where("orders.updated_at", "<", cutoff).orderBy("orders.updated_at").limit(limit);
  const result = await db
    .deleteFrom("orders")
    .where(sql<boolean>`orders.id = any(array(${batch}))`)
    .where(isUntouchedDraft)
    .where("orders.updated_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export class OrderFrozenError extends Error {
  constructor() {
    super("The order is no longer a draft; return it to draft to change it");
    this.name = "OrderFrozenError";
  }
}

type OrderFields = Partial<Pick<Order, "email" | "phone" | "full_name" | "address" | "delivery_comment" | "additional_comments" | "wizard_step" | "current_patient_id" | "data_consent_at">>;

/** The contacts a signed-in client's draft is born with; a form that saves any of them makes them typed. */
const CONTACT_FIELDS = ["email", "phone", "full_name", "address"] as const;

export async function updateDraft(db: DB, orderId: string, fields: OrderFields): Promise<void> {
  const values = {
    ...fields,
    ...(fields.email !== undefined ? { email: normalizeEmail(fields.email) } : {}),
    ...(CONTACT_FIELDS.some((field) => fields[field] !== undefined) ? { contacts_prefilled: false } : {}),
    updated_at: new Date(),
  };
  const result = await db.updateTable("orders").set(values).where("id", "=", orderId).where("status", "=", "draft").executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new OrderFrozenError();
}

/**
 * The step may be stored for any order (a pending order is shown on its summary). `returns`: the
 * step was opened from the summary, and its "next" leads back there (ADR 060); any other move ends it.
 */
export async function setWizardStep(db: DB, orderId: string, step: number, returns = false) {
  await db.updateTable("orders").set({ wizard_step: step, wizard_returns: returns }).where("id", "=", orderId).execute();
}

/** What the wizard's price of a draft comes to (pricing's breakdown): the total, the discount, the client's personal comment. */
export interface DraftPrice {
  total: number;
  discountPercent: number;
  note: string | null;
}

/**
 * Writes the price on a draft (a frozen order keeps its own): the total, the discount and, when the
 * client's conditions carry a personal comment, that comment as the order's additional_comments
 * (customer side §7: "update total_cost, updated_at and optional additional_comments (from the
 * client's personal comment)"). The summary stores it on entering, the hand-off before it freezes.
 */
export async function storeDraftPrice(db: DB, orderId: string, price: DraftPrice): Promise<void> {
  await db
    .updateTable("orders")
    .set({
      total_cost: price.total,
      discount_percentage: price.discountPercent,
      updated_at: new Date(),
      ...(price.note !== null ? { additional_comments: price.note } : {}),
    })
    .where("id", "=", orderId)
    .where("status", "=", "draft")
    .execute();
}

/**
 * Remembers the draft's current patient (customer side §4): the first, chosen because none was. A
 * convenience the caller may let fail; a frozen order keeps its own.
 */
export async function rememberCurrentPatient(db: DB, orderId: string, patientId: string): Promise<void> {
  await db.updateTable("orders").set({ current_patient_id: patientId }).where("id", "=", orderId).where("status", "=", "draft").execute();
}

/** Deletes one draft (a new order that failed to be made: ADR 071); an order that left the draft stays. */
export async function deleteDraft(db: DB, orderId: string): Promise<void> {
  await db.deleteFrom("orders").where("id", "=", orderId).where("status", "=", "draft").execute();
}
