import { sql } from "kysely";
import type { FileInfo, FileType, Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { destinationPath } from "./production-paths";
import { getConfig } from "~/modules/config/config.server";
import type { ScanSummary } from "./recorded-scan";
import { OrderFrozenError } from "./drafts.server";
import { detectStep, guessJaw } from "./jaw-and-step";
import { declaredOrGuessed, type FileFacts, isDeclared } from "./declaration";
import { isUuid } from "./orders.server";

/**
 * An order's files: each patient's file lists and their queue entries to the production server.
 * The lists change only while the order is a draft (DESIGN §4.3): every write below checks that in SQL.
 */

export const FILE_COLUMNS = {
  matrix: "matrix_files_info",
  aligners: "aligner_files_info",
  retainer: "retainer_files_info",
} as const satisfies Record<FileType, keyof Patient>;

// At most 300 files and 5 GiB per order (DESIGN §4.14): `ORDER_MAX_FILES`, `ORDER_MAX_BYTES` (config.uploads).

/**
 * The skip of each file type's upload step (ADR 087): its flag, when the skip was confirmed, and
 * when the step came back into the order after one.
 */
export const SKIP_COLUMNS = {
  matrix: { flag: "skip_matrix", at: "skip_matrix_at", back: "unskip_matrix_at" },
  aligners: { flag: "skip_aligners", at: "skip_aligners_at", back: "unskip_aligners_at" },
  retainer: { flag: "skip_retainers", at: "skip_retainers_at", back: "unskip_retainers_at" },
} as const satisfies Record<FileType, { flag: keyof Patient; at: keyof Patient; back: keyof Patient }>;

/** SQL: a file record (a JSONB element) is in the order, not set aside by a skip (ADR 087). */
export const inOrder = (file: ReturnType<typeof sql>) => sql<boolean>`(${file} -> 'setAside') is distinct from 'true'::jsonb`;

/** The generated column that counts a kind's files in the order (migration 2026-12-08T1200). */
const COUNT_COLUMNS = { matrix: "matrix_file_count", aligners: "aligner_file_count", retainer: "retainer_file_count" } as const satisfies Record<FileType, keyof Patient>;

/**
 * How many files of a kind a patient has in the order, as `filesOf` reads them: entries with a
 * storage path, an original name and a URL, each a non-empty string, and not set aside. Kept on the
 * row by the database as the lists are written (migration 2026-12-08T1200), for lists that show only
 * the counts: counting a page of orders' file lists cost the database about 1 ms a page.
 */
export function fileCountOf(type: FileType) {
  return sql.ref<number>(`orders_patients.${COUNT_COLUMNS[type]}`);
}

type FileLists = Pick<Patient, "matrix_files_info" | "aligner_files_info" | "retainer_files_info">;

/**
 * Every file a patient's list records for a kind, in the order or set aside: what storage holds for
 * it (the storage screen, an upload's record found again). Entries missing storagePath, originalName
 * or url are discarded (customer-side §3).
 */
export function storedFilesOf(patient: FileLists, type: FileType): FileInfo[] {
  const value = patient[FILE_COLUMNS[type]] as unknown;
  const list = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? (list as FileInfo[]).filter((file) => file && file.storagePath && file.originalName && file.url) : [];
}

/** A patient's files of a kind that are in the order: billed, checked before payment, labelled, packed and sent. */
export const filesOf = (patient: FileLists, type: FileType): FileInfo[] => storedFilesOf(patient, type).filter((file) => file.setAside !== true);

/** The files a confirmed skip set aside (ADR 087): kept, listed as not included, restored by un-skipping. */
export const setAsideFilesOf = (patient: FileLists, type: FileType): FileInfo[] => storedFilesOf(patient, type).filter((file) => file.setAside === true);

/** Storage key and production-server folder of the queue entry (DESIGN §4.15–4.16). */
export function queueDestination(order: Pick<Order, "code">, patient: Pick<Patient, "folder_name">, type: FileType) {
  return destinationPath(getConfig().fileServer.root, order.code, patient.folder_name, type);
}

export interface StoredUpload {
  originalName: string;
  key: string;
  size: number;
  triangles: number;
  /** The scan checks (uploads/scan.ts), shown with the file. */
  scan?: ScanSummary | null;
  /**
   * A resumable upload's own key: a file with this key is recorded once, however often its
   * finishing step runs (a lost response, a retry, a second request racing the first).
   */
  uploadKey?: string;
  /** The jaw and step already declared (a file copied from a past order, ADR 071); otherwise prefilled from the name. */
  declared?: Pick<FileInfo, "jaw" | "stepNumber" | "confirmed">;
  /** A PLY or OBJ kept as sent (ADR 102); `key` is the binary STL made from it. */
  source?: { key: string; format: "ply" | "obj" };
}

/** A file of a patient's list, with what the upload step adds to the spec's fields. */
export type RecordedFile = FileInfo & { scan?: ScanSummary | null; uploadKey?: string };

/**
 * Appends stored files to a patient's list and creates their queue entries, in one transaction:
 * the one finishing step of every upload, plain form or resumable. The list grows on its locked row
 * by one statement (DESIGN §4.13), so two uploads at once never lose a file. Returns "duplicate"
 * (and changes nothing) when a file with one of the uploads' `uploadKey` is already on the list.
 *
 * An upload on a skipped step brings the step back (DESIGN §4.9), unless it was started before the
 * skip was confirmed (`startedAt`, a resumable upload's creation): the doctor declined it on its way,
 * and it lands set aside with the step's other files (ADR 087).
 */
export async function appendFiles(db: DB, order: Pick<Order, "id" | "code">, patient: Patient, type: FileType, uploads: StoredUpload[], startedAt = new Date()): Promise<"recorded" | "duplicate"> {
  if (uploads.length === 0) return "recorded";
  const now = new Date();
  const uploadKeys = uploads.flatMap((upload) => (upload.uploadKey ? [upload.uploadKey] : []));
  const column = FILE_COLUMNS[type];
  const skip = SKIP_COLUMNS[type];
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("orders_patients")
      .selectAll()
      .where("id", "=", patient.id)
      .where("order_id", "=", order.id)
      .where((eb) => eb.exists(eb.selectFrom("orders").select("id").where("id", "=", order.id).where("status", "=", "draft")))
      .forUpdate()
      .executeTakeFirst();
    // Checked on the locked row, so of two finishing steps at once only one appends.
    if (uploadKeys.length > 0 && (row ? storedFilesOf(row, type).some((file) => (file as RecordedFile).uploadKey !== undefined && uploadKeys.includes((file as RecordedFile).uploadKey!)) : await isRecorded(trx, patient.id, type, uploadKeys)))
      return "duplicate";
    if (!row) throw new OrderFrozenError();
    const skippedAt = row[skip.at];
    const declined = row[skip.flag] && skippedAt !== null && new Date(skippedAt).getTime() > startedAt.getTime();
    const infos: RecordedFile[] = uploads.map((upload) => ({
      originalName: upload.originalName,
      storagePath: upload.key,
      url: `/files/orders/${upload.key}`,
      type: "model/stl",
      size: upload.size,
      triangles: upload.triangles,
      uploadedAt: now.toISOString(),
      ...(upload.scan ? { scan: upload.scan } : {}),
      ...(upload.source ? { source: { storagePath: upload.source.key, format: upload.source.format } } : {}),
      ...(upload.uploadKey ? { uploadKey: upload.uploadKey } : {}),
      ...(upload.declared ?? prefilledDeclaration(upload.originalName, type)),
      ...(declined ? { setAside: true } : {}),
    }));
    await trx
      .updateTable("orders_patients")
      .set({
        [column]: sql`${sql.ref(column)} || ${JSON.stringify(infos)}::jsonb`,
        // A confirmed skip undone by a file: the summary says the step came back (ADR 087).
        ...(declined ? {} : { [skip.flag]: false, [skip.at]: null, ...(row[skip.flag] && skippedAt !== null ? { [skip.back]: now } : {}) }),
        updated_at: now,
      } as never)
      .where("id", "=", row.id)
      .execute();
    await trx
      .insertInto("ftp_uploads_queue")
      .values(
        uploads.map((upload) => ({
          order_id: order.id,
          patient_id: patient.id,
          file_path: upload.key,
          original_name: upload.originalName,
          destination_path: queueDestination(order, patient, type),
          order_prefix: order.code,
          patient_name: patient.patient_name,
          file_type: type,
          file_size: upload.size,
          set_aside_at: declined ? now : null,
        })),
      )
      .execute();
    return "recorded";
  });
}

/**
 * A new file's jaw and step, prefilled from its name by the specification's rule (ADR 058); it is
 * confirmed only when the name gave a jaw — and, for an aligner, a step number.
 */
export function prefilledDeclaration(originalName: string, type: FileType): Pick<FileInfo, "jaw" | "stepNumber" | "confirmed"> {
  const jaw = guessJaw(originalName);
  const stepNumber = detectStep(originalName);
  return { jaw, stepNumber, confirmed: isDeclared(type, jaw, stepNumber) };
}


export interface FileDeclaration {
  storagePath: string;
  jaw: "upper" | "lower" | null;
  stepNumber: number | null;
}

/**
 * Records the jaw and step the doctor declared for files of a patient's list (ADR 058), the list
 * changed on its locked row so an upload finishing meanwhile is never lost (DESIGN §4.13). Files
 * the list does not hold are ignored; a declaration without a jaw (or an aligner's step) leaves the
 * file to be confirmed. Only a draft's files change.
 */
export async function declareFiles(db: DB, order: Pick<Order, "id">, patient: Pick<Patient, "id">, type: FileType, declarations: FileDeclaration[]): Promise<void> {
  if (declarations.length === 0) return;
  const byPath = new Map(declarations.map((declaration) => [declaration.storagePath, declaration]));
  const column = FILE_COLUMNS[type];
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("orders_patients")
      .selectAll()
      .where("id", "=", patient.id)
      .where("order_id", "=", order.id)
      .where((eb) => eb.exists(eb.selectFrom("orders").select("id").where("id", "=", order.id).where("status", "=", "draft")))
      .forUpdate()
      .executeTakeFirst();
    if (!row) return;
    const list = (typeof row[column] === "string" ? JSON.parse(row[column] as unknown as string) : row[column]) as FileInfo[];
    if (!Array.isArray(list)) return;
    let changed = false;
    const next = list.map((file) => {
      const declared = file && byPath.get(file.storagePath);
      if (!declared) return file;
      const confirmed = isDeclared(type, declared.jaw, declared.stepNumber);
      if (file.jaw === declared.jaw && (file.stepNumber ?? null) === declared.stepNumber && file.confirmed === confirmed) return file;
      changed = true;
      return { ...file, jaw: declared.jaw, stepNumber: declared.stepNumber, confirmed };
    });
    if (!changed) return;
    await trx
      .updateTable("orders_patients")
      .set({ [column]: JSON.stringify(next), updated_at: new Date() } as never)
      .where("id", "=", patient.id)
      .execute();
  });
}

export interface FileCorrection {
  patientId: string;
  type: FileType;
  storagePath: string;
  jaw: "upper" | "lower";
  stepNumber: number | null;
}

export type CorrectionResult =
  | { ok: true; changed: boolean; name: string; from: FileFacts; to: { jaw: "upper" | "lower"; step: number | null } }
  | { ok: false; reason: "not_found" | "step_required" };

/**
 * Staff's correction of one file's jaw and step (ADR 058), in any status of the order: the file's
 * record gets the new values as declared, and the order's history of its files who changed which
 * file from what to what. The patient's row is locked, so an upload or the doctor's declaration
 * finishing meanwhile is never lost. A file the order's patient does not hold is "not_found"; an
 * aligner needs its step. The same values on a declared file change nothing; on a guessed one they
 * are its confirmation, recorded as such.
 */
export async function correctFile(db: DB, orderId: string, correction: FileCorrection, actor: string): Promise<CorrectionResult> {
  if (!isUuid(orderId) || !isUuid(correction.patientId)) return { ok: false, reason: "not_found" };
  const { type, storagePath, jaw, stepNumber } = correction;
  if (!isDeclared(type, jaw, stepNumber)) return { ok: false, reason: "step_required" };
  const column = FILE_COLUMNS[type];
  return db.transaction().execute(async (trx): Promise<CorrectionResult> => {
    const row = await trx.selectFrom("orders_patients").selectAll().where("id", "=", correction.patientId).where("order_id", "=", orderId).forUpdate().executeTakeFirst();
    const file = row ? filesOf(row, type).find((entry) => entry.storagePath === storagePath) : undefined;
    if (!row || !file) return { ok: false, reason: "not_found" };
    const from = declaredOrGuessed({ name: file.originalName, ...file });
    const to = { jaw, step: stepNumber };
    if (!from.guessed && from.jaw === jaw && from.step === stepNumber) return { ok: true, changed: false, name: file.originalName, from, to };
    const list = (typeof row[column] === "string" ? JSON.parse(row[column] as unknown as string) : row[column]) as FileInfo[];
    const next = list.map((entry) => (entry && entry.storagePath === storagePath ? { ...entry, jaw, stepNumber, confirmed: true } : entry));
    await trx
      .updateTable("orders_patients")
      .set({ [column]: JSON.stringify(next), updated_at: new Date() } as never)
      .where("id", "=", row.id)
      .execute();
    await trx
      .insertInto("order_file_corrections")
      .values({
        order_id: orderId,
        patient_id: row.id,
        file_type: type,
        storage_path: storagePath,
        original_name: file.originalName,
        from_jaw: from.jaw,
        from_step: from.step,
        from_guessed: from.guessed,
        to_jaw: jaw,
        to_step: stepNumber,
        actor,
      })
      .execute();
    return { ok: true, changed: true, name: file.originalName, from, to };
  });
}

export interface FileCorrectionEntry {
  orderId: string;
  at: string;
  actor: string;
  type: FileType;
  name: string;
  patientFolder: string;
  from: FileFacts;
  to: { jaw: "upper" | "lower"; step: number | null };
}

/** The history of staff's corrections of the orders' files, oldest first (bounded by the orders asked for). */
export async function fileCorrectionsOf(db: DB, orderIds: string[]): Promise<FileCorrectionEntry[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom("order_file_corrections")
    .innerJoin("orders_patients", "orders_patients.id", "order_file_corrections.patient_id")
    .select([
      "order_file_corrections.order_id",
      "order_file_corrections.created_at",
      "order_file_corrections.actor",
      "order_file_corrections.file_type",
      "order_file_corrections.original_name",
      "order_file_corrections.from_jaw",
      "order_file_corrections.from_step",
      "order_file_corrections.from_guessed",
      "order_file_corrections.to_jaw",
      "order_file_corrections.to_step",
      "orders_patients.folder_name",
    ])
    .where("order_file_corrections.order_id", "in", orderIds)
    .orderBy("order_file_corrections.created_at")
    .orderBy("order_file_corrections.id")
    .execute();
  return rows.map((row) => ({
    orderId: row.order_id,
    at: row.created_at.toISOString(),
    actor: row.actor,
    type: row.file_type,
    name: row.original_name,
    patientFolder: row.folder_name,
    from: { jaw: row.from_jaw, step: row.from_step, guessed: row.from_guessed },
    to: { jaw: row.to_jaw, step: row.to_step },
  }));
}

/** Files still to be confirmed: recorded with a `confirmed` of false (older files have none and keep their guess). */
export const unconfirmedFiles = (files: FileInfo[]) => files.filter((file) => file.confirmed === false);

/** Whether a file with one of these upload keys is on the patient's list. */
async function isRecorded(db: DB, patientId: string, type: FileType, uploadKeys: string[]): Promise<boolean> {
  return Boolean(await recordedUpload(db, patientId, type, uploadKeys));
}

/** The recorded file with one of these upload keys, if any. */
export async function recordedUpload(db: DB, patientId: string, type: FileType, uploadKeys: string[]): Promise<RecordedFile | undefined> {
  const patient = await db.selectFrom("orders_patients").selectAll().where("id", "=", patientId).executeTakeFirst();
  if (!patient) return undefined;
  return (storedFilesOf(patient, type) as RecordedFile[]).find((file) => file.uploadKey !== undefined && uploadKeys.includes(file.uploadKey));
}

/**
 * Removes one file from a patient's list (one statement). Its queue entry goes with it unless the
 * file already reached the production server; then the removal is recorded for staff.
 * Returns false when the file is not on this patient's list.
 */
export async function removeFile(db: DB, orderId: string, patientId: string, type: FileType, storagePath: string): Promise<boolean> {
  const column = FILE_COLUMNS[type];
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("orders_patients")
      .set({
        [column]: sql`(select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(${sql.ref(column)}) e where e->>'storagePath' <> ${storagePath})`,
        updated_at: new Date(),
      } as never)
      .where("id", "=", patientId)
      .where("order_id", "=", orderId)
      .where(sql<boolean>`${sql.ref(column)} @> ${JSON.stringify([{ storagePath }])}::jsonb`)
      .where((eb) => eb.exists(eb.selectFrom("orders").select("id").where("id", "=", orderId).where("status", "=", "draft")))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.deleteFrom("ftp_uploads_queue").where("file_path", "=", storagePath).where("status", "<>", "completed").execute();
    await trx.updateTable("ftp_uploads_queue").set({ removed_at: new Date() }).where("file_path", "=", storagePath).where("status", "=", "completed").execute();
    return true;
  });
}

/** Files and bytes already in an order, for the quotas. */
export async function orderFileUsage(db: DB, orderId: string): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom("ftp_uploads_queue")
    .select([sql<number>`count(*)::int`.as("files"), sql<number>`coalesce(sum(file_size), 0)::bigint`.as("bytes")])
    .where("order_id", "=", orderId)
    .where("removed_at", "is", null)
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes) };
}

/** Queue status of each stored file (for the per-file sync label). */
export async function queueStatuses(db: DB, orderId: string): Promise<Record<string, string>> {
  const rows = await db.selectFrom("ftp_uploads_queue").select(["file_path", "status"]).where("order_id", "=", orderId).execute();
  return Object.fromEntries(rows.map((row) => [row.file_path, row.status]));
}

