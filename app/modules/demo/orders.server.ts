import type { DB } from "~/modules/db/db.server";
import { changeOrderStatus, createOrder, recordPaymentId } from "~/modules/orders/orders.server";
import { insertSeededPatient, writeSeededComposition } from "~/modules/orders/seeded-orders.server";
import type { Actor } from "~/modules/orders/status";
import { PRICE_SETS } from "~/modules/pricing/price-sets";
import type { Currency, MarketColumn, OrderStatus, PaymentStatus, QueueStatus } from "~db/schema";
import { DEMO, type DemoClient } from "./data";
import { makePatients, type PatientDraft } from "./files.server";
import { DAY, MINUTE, plus, type Random } from "./random";
import { stepsFor, trackingNumber } from "./status-paths";
import { FIRST_STEP, LAST_STEP, stepNumber } from "~/modules/wizard/steps";

/** Total as the wizard computes it: goods at the client's prices, discount half up on goods, delivery once, minimum order. */
function orderTotal(patients: PatientDraft[], currency: Currency, client: DemoClient | null): { total: number; discount: number | null } {
  const set = PRICE_SETS[currency];
  const base = { single: set.singleLayerMaterial, three: set.threeLayerMaterial, matrix: set.hardMatrix, retainer: set.retainer, delivery: set.delivery, minimum: set.minimumOrder };
  const personal = client && client.settings.currency === currency ? client.settings : undefined;
  const single = personal?.aligner_single_layer_price ?? personal?.aligner_price ?? base.single;
  const three = personal?.aligner_three_layer_price ?? personal?.aligner_price ?? base.three;
  const matrix = personal?.matrix_price ?? base.matrix;
  const retainer = personal?.retainer_standard_price ?? base.retainer;
  let goods = 0;
  for (const patient of patients) {
    goods += patient.files.aligners.length * (patient.material === "single_layer" ? single : three);
    goods += patient.files.matrix.length * matrix;
    goods += patient.files.retainer.length * retainer;
  }
  const percent = personal?.discount_percentage ?? null;
  const hundredths = percent === null ? 0 : Math.round(percent * 100);
  const discount = Math.floor((goods * hundredths + 5000) / 10000);
  const total = Math.max(goods - discount + base.delivery, base.minimum);
  return { total, discount: percent };
}

export interface SeedContext {
  now: Date;
  random: Random;
  staffActors: Actor[];
  paymentActor: Actor;
}

/**
 * The planned orders, one by one through the state machine. Returns, per client e-mail, the first
 * order that went to payment (partners' referrals point at it).
 */
export async function seedOrders(db: DB, { now, random, staffActors, paymentActor }: SeedContext): Promise<Map<string, { orderId: string; at: Date }>> {
  const clients: readonly DemoClient[] = DEMO.clients;
  const usedNames = new Set<string>();
  const firstHandOff = new Map<string, { orderId: string; at: Date }>();
  for (const plan of DEMO.plan) {
    const client = plan.client === null ? null : clients[plan.client];
    const currency: Currency = client?.currency ?? "rub";
    const market: MarketColumn = client?.market ?? "domestic";
    const steps = stepsFor(plan.path, random);

    // Times: created at the planned day, each step after the previous; nothing ends in the future.
    let createdAt = plus(now, -Math.round(plan.daysAgo * DAY) + random.int(-90, 90) * MINUTE);
    // Upper bound of the time makePatients spends per patient (at most 32 minutes of uploads), plus the wizard.
    const composeTime = plan.patients * 35 * MINUTE + 10 * MINUTE;
    const chainLength = composeTime + steps.reduce((sum, step) => sum + step.after, 0);
    const overflow = createdAt.getTime() + chainLength - (now.getTime() - 10 * MINUTE);
    if (overflow > 0) createdAt = plus(createdAt, -overflow);

    const withContacts = client !== null && (plan.patients > 0 || (plan.step ?? LAST_STEP) >= stepNumber("delivery"));
    const customerActor: Actor = { kind: "customer", label: client?.email ?? `guest (85.140.${random.int(1, 254)}.${random.int(1, 254)})` };
    const order = await createOrder(
      db,
      {
        market,
        currency,
        email: withContacts ? client.email : null,
        fullName: withContacts ? client.fullName : null,
        phone: withContacts ? client.phone : null,
        address: withContacts ? client.address : null,
        createdAt,
      },
      customerActor,
    );

    const patients = makePatients(random, order, plan.patients, market === "international", plus(createdAt, 3 * MINUTE), usedNames);
    const { total, discount } = orderTotal(patients, currency, client);
    const lastUpload = Math.max(
      createdAt.getTime(),
      ...patients.flatMap((patient) => [...patient.files.matrix, ...patient.files.aligners, ...patient.files.retainer]).map((file) => Date.parse(file.uploadedAt!)),
    );
    const composedAt = new Date(Math.min(lastUpload + 5 * MINUTE, createdAt.getTime() + composeTime));
    const isDraftPlan = plan.path === "draft" || plan.path === "returned";
    const first = patients[0];

    // Composition, wizard state and queue entries in one transaction, before the hand-off freezes it.
    const queued = await db.transaction().execute(async (trx) => {
      const inserted: Array<{ id: string; patient: PatientDraft }> = [];
      for (const patient of patients) {
        const id = await insertSeededPatient(trx, {
          order_id: order.id,
          patient_name: patient.name,
          folder_name: patient.folder,
          material_type: patient.material,
          cut_type: patient.cut,
          matrix_type: patient.skipMatrix ? null : patient.matrix,
          additional_comments: patient.comment,
          matrix_files_info: JSON.stringify(patient.files.matrix),
          aligner_files_info: JSON.stringify(patient.files.aligners),
          retainer_files_info: JSON.stringify(patient.files.retainer),
          skip_matrix: patient.skipMatrix,
          skip_aligners: false,
          skip_retainers: patient.skipRetainers,
          created_at: patient.createdAt,
          updated_at: composedAt,
        });
        inserted.push({ id, patient });
      }
      await writeSeededComposition(trx, order.id, {
        wizard_step: isDraftPlan ? plan.step ?? FIRST_STEP : LAST_STEP,
        delivery_comment: withContacts ? random.pick(DEMO.deliveryComments) : null,
        additional_comments: patients.length > 0 ? random.pick(DEMO.orderComments) : null,
        material_type: first?.material ?? null,
        cut_type: first?.cut ?? null,
        matrix_type: first && !first.skipMatrix ? first.matrix : null,
        retainer_type: patients.some((patient) => patient.files.retainer.length > 0) ? "standard" : null,
        current_patient_id: inserted.at(-1)?.id ?? null,
        total_cost: patients.length > 0 ? total : null,
        discount_percentage: patients.length > 0 ? discount : null,
        updated_at: composedAt,
      });

      // Entries are created at upload (DESIGN §4.15), in upload order; their state is set after the status walk.
      const entries = inserted.flatMap(({ id: patientId, patient }) =>
        (["matrix", "aligners", "retainer"] as const).flatMap((type) =>
          patient.files[type].map((file) => ({
            order_id: order.id,
            patient_id: patientId,
            file_path: file.storagePath,
            original_name: file.originalName,
            destination_path: `/AlignersFactory/${order.code}/${patient.folder}/${type}`,
            order_prefix: order.code,
            patient_name: patient.name,
            file_type: type,
            file_size: file.size,
            status: "pending" as const,
            created_at: new Date(file.uploadedAt!),
            next_attempt_at: new Date(file.uploadedAt!),
          })),
        ),
      );
      if (entries.length === 0) return [];
      const rows = await trx.insertInto("ftp_uploads_queue").values(entries).returning(["id", "file_path"]).execute();
      return entries.map((entry) => ({ id: rows.find((row) => row.file_path === entry.file_path)!.id }));
    });

    // Walk the state machine; paid_at and history come from changeOrderStatus.
    let clock = composedAt;
    const times: Partial<Record<OrderStatus, Date>> = {};
    for (const step of steps) {
      clock = plus(clock, step.after);
      const actor = step.actor === "customer" ? customerActor : step.actor === "payment" ? paymentActor : random.pick(staffActors);
      await changeOrderStatus(db, order.id, step.to, actor, {
        at: clock,
        note: step.note ?? null,
        trackingNumber: step.tracking ? trackingNumber(random, market) : null,
      });
      times[step.to] ??= clock;
    }
    // The partner link is made when an e-mail first goes to payment (DESIGN §4.29); the plan is not in date order.
    const handOff = times.pending;
    const earliest = client ? firstHandOff.get(client.email) : undefined;
    if (client && handOff && (!earliest || earliest.at.getTime() > handOff.getTime())) {
      firstHandOff.set(client.email, { orderId: order.id, at: handOff });
    }

    // Payment attempts: one per hand-off, succeeded once verified.
    if (handOff && total > 0 && patients.length > 0) {
      const attempts: Array<{ status: PaymentStatus; createdAt: Date; updatedAt: Date }> = [];
      if (plan.path === "paid_retry") {
        attempts.push({ status: "canceled", createdAt: handOff, updatedAt: plus(handOff, 4 * MINUTE) });
      }
      const finalStatus: PaymentStatus = times.paid
        ? "succeeded"
        : plan.path === "returned" || plan.path === "cancelled_pending"
          ? "canceled"
          : "pending";
      const attemptStart = plan.path === "paid_retry" ? plus(handOff, 5 * MINUTE) : handOff;
      const finishedAt = times.paid ?? times.draft ?? times.cancelled ?? attemptStart;
      attempts.push({ status: finalStatus, createdAt: attemptStart, updatedAt: finishedAt });
      let providerPaymentId: string | null = null;
      for (const [index, attempt] of attempts.entries()) {
        providerPaymentId = `sbx_${order.id.replaceAll("-", "").slice(0, 20)}_${index + 1}`;
        await db
          .insertInto("payments")
          .values({
            order_id: order.id,
            order_code: order.code,
            provider: "sandbox",
            provider_payment_id: providerPaymentId,
            amount: total,
            currency,
            status: attempt.status,
            idempotence_key: `seed-${order.id}-${index + 1}`,
            confirmation_url: attempt.status === "pending" ? `/payment/sandbox/${providerPaymentId}` : null,
            created_at: attempt.createdAt,
            updated_at: attempt.updatedAt,
          })
          .execute();
      }
      await recordPaymentId(db, order.id, providerPaymentId);
    }

    // Queue state: sent shortly after payment; a few entries in flight or failing.
    if (queued.length > 0 && times.paid) {
      await db.transaction().execute(async (trx) => {
        for (const [index, entry] of queued.entries()) {
          let status: QueueStatus = "completed";
          if (plan.path === "paid" && plan.queue === undefined) status = "pending";
          if (plan.queue === "uploading") status = index === 0 ? "uploading" : "pending";
          if (plan.queue === "stale_lease") status = index === 0 ? "uploading" : "pending";
          if (plan.queue === "partial") status = index < Math.ceil(queued.length / 2) ? "completed" : "pending";
          if ((plan.queue === "failed_retry" || plan.queue === "failed_exhausted") && index === queued.length - 1) status = "failed";
          if (status === "pending") continue;

          const sentAt = plus(times.paid!, (index + 1) * 40 * 1000);
          if (status === "completed") {
            await trx
              .updateTable("ftp_uploads_queue")
              .set({ status, attempts: 1, last_attempt_at: sentAt, completed_at: sentAt, next_attempt_at: sentAt })
              .where("id", "=", entry.id)
              .execute();
          } else if (status === "uploading") {
            // A live lease, or (stale_lease) one whose worker died: claimed again once it expires.
            const claimedAt = plan.queue === "stale_lease" ? plus(now, -25 * MINUTE) : plus(now, -1 * MINUTE);
            await trx
              .updateTable("ftp_uploads_queue")
              .set({
                status,
                attempts: 1,
                last_attempt_at: claimedAt,
                next_attempt_at: claimedAt,
                locked_until: plus(claimedAt, 5 * MINUTE),
                locked_by: plan.queue === "stale_lease" ? "worker-2f9c (pid 4412)" : "worker-7a1e (pid 4380)",
              })
              .where("id", "=", entry.id)
              .execute();
          } else {
            const attempts = plan.queue === "failed_exhausted" ? 8 : 3;
            const lastAttempt = plus(now, -random.int(10, 50) * MINUTE);
            await trx
              .updateTable("ftp_uploads_queue")
              .set({
                status,
                attempts,
                error_message: plan.queue === "failed_exhausted" ? DEMO.queueErrors[2] : random.pick(DEMO.queueErrors.slice(0, 2)),
                last_attempt_at: lastAttempt,
                // Exponential backoff; an exhausted entry waits for staff.
                next_attempt_at: plus(lastAttempt, 2 ** attempts * MINUTE),
              })
              .where("id", "=", entry.id)
              .execute();
          }
        }
      });
    }
  }
  return firstHandOff;
}
