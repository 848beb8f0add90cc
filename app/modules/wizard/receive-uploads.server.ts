import type { Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import type { Viewer } from "~/modules/http/request-context.server";
import { badRequest } from "~/modules/http/request.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getStorage } from "~/modules/storage/storage.server";
import { storageKey, storedFileName } from "~/modules/uploads/file-names";
import { parseMultipartFormData } from "~/modules/uploads/multipart.server";
import { discardUnrecorded } from "~/modules/uploads/unrecorded.server";
import { createStlUploadHandler, type UploadResult } from "~/modules/uploads/upload-handler.server";
import { clampStep, STEP_FILE_TYPE } from "./navigation";
import { fileListFailureToast, frozenToast } from "./replies.server";
import { rateLimitUploadBytes } from "./upload-quota.server";
import { appendFiles, listPatients, ORDER_BYTES_LIMIT, ORDER_FILE_LIMIT, OrderFrozenError, orderFileUsage } from "./wizard.server";

/**
 * A wizard form sent as multipart (an upload step): the files stream to storage while the form is
 * read (no buffering) and are recorded on the current patient. Returns the form and what became of
 * each file, or the answer when the upload is refused or its list cannot be saved.
 */
export async function receiveUploads(request: Request, context: unknown, db: DB, order: Order | null, viewer: Viewer): Promise<{ form: FormData; uploads: UploadResult[] } | Response> {
  let form: FormData;
  const patients = order ? await listPatients(db, order.id) : [];
  const patient = order ? patients.find((p) => p.id === order.current_patient_id) ?? patients[0] ?? null : null;
  const fileType = order ? STEP_FILE_TYPE[clampStep(order.wizard_step)] : undefined;
  const canUpload = Boolean(order && order.status === "draft" && patient && fileType);
  const usage = order && canUpload ? await orderFileUsage(db, order.id) : { files: 0, bytes: 0 };
  const upload = createStlUploadHandler({
    storage: getStorage(),
    bucket: "orders",
    keyFor: (originalName, uploadedAt) => storageKey(order!.id, patient!.folder_name, fileType!, storedFileName(originalName, uploadedAt)),
    maxFiles: canUpload ? Math.max(0, ORDER_FILE_LIMIT - usage.files) : 0,
  });
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (canUpload && declared > ORDER_BYTES_LIMIT - usage.bytes) {
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.upload.errorTitle",
      description: "wizard.upload.orderQuota",
    });
  }
  if (canUpload && !viewer.user && !viewer.isStaff) {
    const allowed = await rateLimitUploadBytes(db, request, context);
    if (!allowed)
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.upload.errorTitle",
        description: "wizard.upload.rateLimited",
      });
  }
  try {
    form = await parseMultipartFormData(request, upload.handler);
  } catch (error) {
    // A body without its boundary or cut off midway: nothing of it is kept.
    await upload.discardStored();
    if (request.signal.aborted) throw error;
    throw await badRequest(request);
  }
  const uploads = upload.results();
  if (order && patient && fileType) {
    const stored = uploads.filter((result): result is Extract<UploadResult, { ok: true }> => result.ok);
    try {
      await appendFiles(
        db,
        order,
        patient,
        fileType,
        stored.map((s) => ({
          originalName: s.originalName,
          key: s.key,
          size: s.size,
          triangles: s.triangles,
          scan: s.scan,
        })),
      );
    } catch (error) {
      await discardUnrecorded(
        db,
        getStorage(),
        order.id,
        stored.map((s) => s.key),
        error,
      );
      if (error instanceof OrderFrozenError) return redirectWithToast("/order", frozenToast);
      if (isDatabaseUnavailable(error)) throw error;
      // The files' list could not be saved: said on the step (customer side §8 "Ошибка сохранения").
      return redirectWithToast("/order", fileListFailureToast(fileType));
    }
  }
  return { form, uploads };
}
