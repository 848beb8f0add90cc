import type { FileInfo, FileType, Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import type { Market } from "~/modules/market/market";
import { MARKET_TRAITS } from "~/modules/market/market";
import type { Language } from "~/modules/i18n/languages";
import { isDeclared } from "~/modules/orders/declaration";
import { clientOrderPatient } from "~/modules/orders/client-order.server";
import { deleteDraft, updateDraft } from "~/modules/orders/drafts.server";
import { appendFiles, FILE_COLUMNS, filesOf, prefilledDeclaration, type RecordedFile, type StoredUpload } from "~/modules/orders/files.server";
import { createOrder, isUuid } from "~/modules/orders/orders.server";
import { addPatient, updatePatient } from "~/modules/orders/patients.server";
import type { Actor } from "~/modules/orders/status";
import { type OrderSender, unpaidBytesStartedBy } from "~/modules/orders/order-senders.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { chargeStoredCopies, type UploadAllowance } from "~/modules/uploads/upload-quota.server";
import { sourceKeyOf, storageKey, storedFileName } from "~/modules/uploads/file-names";
import { AGAIN_PLANS, type AgainKind, chosenFilesProblem, type OfferedFile, openingStep, withinOrderCap } from "./again";

/**
 * Ordering again from a patient of a past order (ADR 071): the clinic's own order and patient, the
 * files it may reuse, and the new draft made from them with copies the storage makes itself.
 */

export interface AgainSource {
  order: Order;
  patient: Patient;
}

/**
 * A patient of one of this clinic's past orders (not a draft), by the order's e-mail; undefined for
 * anything else — another clinic's order or patient, a draft, an id that is no id — so the page can
 * answer 404 as if it did not exist.
 */
export async function againSource(db: DB, clinicEmail: string, orderId: string, patientId: string): Promise<AgainSource | undefined> {
  if (!isUuid(orderId) || !isUuid(patientId)) return undefined;
  return clientOrderPatient(db, clinicEmail, orderId, patientId);
}

export type ReusableFile = OfferedFile & Pick<RecordedFile, "originalName" | "jaw" | "stepNumber" | "confirmed" | "triangles" | "scan" | "source">;

/** The patient's files that a new order may reuse, in list order; none once the order's files were removed from storage (ADR 063). */
export function reusableFiles({ order, patient }: AgainSource): ReusableFile[] {
  if (order.storage_removed_at) return [];
  return (Object.keys(FILE_COLUMNS) as FileType[]).flatMap((type) =>
    filesOf(patient, type).map((file: RecordedFile) => ({
      type,
      storagePath: file.storagePath,
      size: file.size,
      originalName: file.originalName,
      jaw: file.jaw,
      stepNumber: file.stepNumber,
      confirmed: file.confirmed,
      triangles: file.triangles,
      scan: file.scan,
      source: file.source,
    })),
  );
}

/** A copied file keeps what the doctor declared; a file recorded before declarations gets the guess a new upload would. */
function keptDeclaration(file: ReusableFile, into: FileType): Pick<FileInfo, "jaw" | "stepNumber" | "confirmed"> {
  if (file.confirmed === undefined) return prefilledDeclaration(file.originalName, into);
  const jaw = file.jaw ?? null;
  const stepNumber = file.stepNumber ?? null;
  return { jaw, stepNumber, confirmed: file.confirmed === true && isDeclared(into, jaw, stepNumber) };
}

export interface AgainRequest {
  kind: AgainKind;
  /** The storage paths of the chosen files. */
  chosen: string[];
  market: Market;
  language: Language;
  actor: Actor;
  /** Who starts the new order (ADR 082): its code counts against the sender's unpaid orders, its files against the clinic's. */
  sender: OrderSender & { by: string };
  /** The upload allowance the copies are charged to, as uploads are (null for staff). */
  allowance: UploadAllowance | null;
  limits: { orderMaxFiles: number; orderMaxBytes: number; clinicUnpaidBytes: number };
}

/** A refusal: its text (a translation key), and for an allowance used up its status and wait. */
export type AgainResult = { ok: true; order: Order } | { ok: false; problem: string; status?: number; retryAfterSeconds?: number };

const clinicFull: AgainResult = { ok: false, problem: "orderAgain.errors.clinicQuota", status: 422 };

/**
 * The new draft (ADR 071): the old order's contacts and delivery, the patient under its name with the
 * choices this kind keeps, the chosen files copied by the storage into the new order's folder (no
 * byte passes through the app) with their declared jaw and step, counted in the order's cap, and the
 * step it opens at. The copies cost what uploads cost (ADR 082): before any is made they must fit
 * what the clinic's unpaid orders may hold together, and they are charged to the clinic's upload
 * allowance — past it the order is refused with the allowance's wait. Nothing is left behind when it
 * fails: a copy missing or refused removes the copies made and the draft, and gives the charge back.
 */
export async function startOrderAgain(db: DB, storage: FileStorage, source: AgainSource, request: AgainRequest): Promise<AgainResult> {
  const plan = AGAIN_PLANS[request.kind];
  const offered = reusableFiles(source);
  const problem = chosenFilesProblem(request.kind, request.chosen, offered);
  if (problem) return { ok: false, problem };
  const chosenPaths = new Set(plan.filesInto ? request.chosen : []);
  const chosen = offered.filter((file) => chosenPaths.has(file.storagePath));

  // The sizes the cap counts are the stored objects', not the list's: one HEAD each, before anything is made.
  const sizes: number[] = [];
  for (const file of chosen) {
    const info = await storage.head("orders", file.storagePath);
    if (!info) return { ok: false, problem: "orderAgain.errors.fileGone" };
    sizes.push(info.size);
  }
  if (!withinOrderCap(sizes, { files: 0, bytes: 0 }, request.limits)) return { ok: false, problem: "orderAgain.errors.overCap" };
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  const clinicHolds = () => unpaidBytesStartedBy(db, request.sender.by);
  if (bytes > 0 && (await clinicHolds()) + bytes > request.limits.clinicUnpaidBytes) return clinicFull;
  const charge = request.allowance ? await chargeStoredCopies(db, request.allowance, bytes) : null;
  if (charge && !charge.ok) return { ok: false, problem: "orderAgain.errors.dailyLimit", status: 429, retryAfterSeconds: charge.refusal.retryAfterSeconds };
  const refund = charge?.refund ?? (async () => undefined);

  const old = source.order;
  let order: Order;
  try {
    order = await createOrder(
      db,
      {
        market: request.market,
        currency: MARKET_TRAITS[request.market].currency,
        email: old.email,
        phone: old.phone,
        fullName: old.full_name,
        address: old.address,
        wizardStep: openingStep(request.kind),
        language: request.language,
        sender: request.sender,
      },
      request.actor,
    );
  } catch (error) {
    await refund();
    throw error;
  }
  const copied: string[] = [];
  try {
    if (old.delivery_comment) await updateDraft(db, order.id, { delivery_comment: old.delivery_comment });
    const patient = await addPatient(db, order, source.patient.patient_name);
    const was = source.patient;
    await updatePatient(db, order.id, patient.id, {
      matrix_type: was.matrix_type,
      ...(plan.keepsAlignerChoices ? { material_type: was.material_type, cut_type: was.cut_type, additional_comments: was.additional_comments } : {}),
      skip_matrix: plan.skips.skipMatrix,
      skip_aligners: plan.skips.skipAligners,
      skip_retainers: plan.skips.skipRetainers,
    });
    if (plan.filesInto && chosen.length > 0) {
      const into = plan.filesInto;
      const at = Date.now();
      const uploads: StoredUpload[] = [];
      for (const [index, file] of chosen.entries()) {
        // One millisecond apart, so two files of one name never share a key.
        const key = storageKey(order.id, patient.folder_name, into, storedFileName(file.originalName, new Date(at + index)));
        const result = await storage.copy("orders", file.storagePath, key);
        if (!result) throw new SourceGone();
        copied.push(key);
        // A PLY or OBJ goes with the STL made from it, under the new name (ADR 102); its size is the file the doctor sent.
        let kept: { size: number; source?: StoredUpload["source"] } = { size: result.size };
        if (file.source) {
          const sourceKey = sourceKeyOf(key, file.source.format);
          const original = await storage.copy("orders", file.source.storagePath, sourceKey);
          if (!original) throw new SourceGone();
          copied.push(sourceKey);
          kept = { size: original.size, source: { key: sourceKey, format: file.source.format } };
        }
        uploads.push({ originalName: file.originalName, key, ...kept, triangles: file.triangles ?? 0, scan: file.scan ?? null, declared: keptDeclaration(file, into) });
      }
      // Recorded as uploads are: the queue entry to the file server, and so the order's file cap.
      await appendFiles(db, order, patient, into, uploads);
      // Counted again with this order's files recorded: of orders made at once, those that together
      // pass the bound are undone, so the clinic never holds more than it may.
      if ((await clinicHolds()) > request.limits.clinicUnpaidBytes) throw new ClinicFull();
    }
    return { ok: true, order };
  } catch (error) {
    await storage.delete("orders", copied).catch((cleanup) => logger.warn({ err: cleanup, keys: copied }, "order again: copies left after a failure"));
    await deleteDraft(db, order.id);
    await refund();
    if (error instanceof SourceGone) return { ok: false, problem: "orderAgain.errors.fileGone" };
    if (error instanceof ClinicFull) return clinicFull;
    throw error;
  }
}

class SourceGone extends Error {
  constructor() {
    super("A file to copy vanished from storage");
    this.name = "SourceGone";
  }
}

class ClinicFull extends Error {
  constructor() {
    super("The clinic's unpaid orders would hold more than they may");
    this.name = "ClinicFull";
  }
}
