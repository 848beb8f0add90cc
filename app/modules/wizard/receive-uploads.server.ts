import type { AppLoadContext } from "@remix-run/node";
import type { Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { getClientAddress, getLocale, type Viewer } from "~/modules/http/request/request-context.server";
import { getConfig } from "~/modules/config/config.server";
import { badRequest, conflict, tooLarge } from "~/modules/http/answers/request.server";
import { redirectWithToast, type Toast } from "~/modules/http/answers/toast.server";
import { isRateLimited } from "~/modules/security/rate-limit.server";
import { getStorage } from "~/modules/storage/storage.server";
import { storageKey, storedFileName } from "~/modules/uploads/file-names";
import { MAX_MULTIPART_FIELD_BYTES, MultipartTextTooLargeError, parseMultipartFormData } from "~/modules/uploads/multipart.server";
import { formatFileSize } from "~/modules/i18n/file-size";
import { discardUnrecorded } from "~/modules/uploads/unrecorded.server";
import { createStlUploadHandler, UploadOverQuota, type UploadResult } from "~/modules/uploads/upload-handler.server";
import { clampStep, uploadTypeAt } from "./steps";
import { fileListFailureToast, frozenToast } from "./replies.server";
import { meteredRequest, uploadAllowanceOf, UploadVolumeExceeded, volumeMeter } from "~/modules/uploads/upload-quota.server";
import { appendFiles, orderFileUsage } from "~/modules/orders/files.server";
import { clinicOfOrder, clinicRoom } from "~/modules/orders/order-senders.server";
import { listPatients } from "~/modules/orders/patients.server";
import { OrderFrozenError } from "~/modules/orders/drafts.server";
import { countUploadRefusal } from "~/modules/metrics/count.server";

const orderQuotaToast: Toast = { type: "error", title: "wizard.upload.errorTitle", description: "wizard.upload.orderQuota" };
/** The clinic's unpaid orders hold all they may together (ADR 082). */
const clinicQuotaToast: Toast = { type: "error", title: "wizard.upload.errorTitle", description: "wizard.upload.clinicQuota" };

/** Anonymous visitors read the hourly allowance of their address, signed-in clients their account's daily one. */
const volumeToast = (reason: UploadVolumeExceeded["reason"]): Toast => ({
  type: "error",
  title: "wizard.upload.errorTitle",
  description: reason === "daily_limit" ? "wizard.upload.dailyLimit" : "wizard.upload.rateLimited",
});

/** A file sent with a step's form after the order had moved on from that step (ADR 057). */
class UploadStepMoved extends Error {
  constructor() {
    super("The files were sent for a step the order is no longer on");
    this.name = "UploadStepMoved";
  }
}

/**
 * A wizard form sent as multipart (an upload step): the files stream to storage while the form is
 * read (no buffering) and are recorded on the current patient. Returns the form and what became of
 * each file, or the answer when the upload is refused or its list cannot be saved.
 */
export async function receiveUploads(request: Request, context: AppLoadContext, db: DB, order: Order | null, viewer: Viewer): Promise<{ form: FormData; uploads: UploadResult[] } | Response> {
  let form: FormData;
  const patients = order ? await listPatients(db, order.id) : [];
  const patient = order ? patients.find((p) => p.id === order.current_patient_id) ?? patients[0] ?? null : null;
  const fileType = order ? uploadTypeAt(order.wizard_step) : undefined;
  const canUpload = Boolean(order && order.status === "draft" && patient && fileType);
  const usage = order && canUpload ? await orderFileUsage(db, order.id) : { files: 0, bytes: 0 };
  const { orderMaxBytes, orderMaxFiles } = getConfig().uploads;
  const orderRoom = orderMaxBytes - usage.bytes;
  // The clinic's unpaid orders together (ADR 082), beside the order's own cap: whichever leaves less.
  const clinicLeft = order && canUpload ? await clinicRoom(db, await clinicOfOrder(db, order.id, viewer.isStaff ? null : (viewer.user?.email ?? null))) : Number.POSITIVE_INFINITY;
  const upload = createStlUploadHandler({
    storage: getStorage(),
    bucket: "orders",
    keyFor: (originalName, uploadedAt) => storageKey(order!.id, patient!.folder_name, fileType!, storedFileName(originalName, uploadedAt)),
    maxFiles: canUpload ? Math.max(0, orderMaxFiles - usage.files) : 0,
    // The order's cap against what is stored and what this request stores, byte by byte as it arrives.
    maxTotalBytes: canUpload ? Math.max(0, Math.min(orderRoom, clinicLeft)) : undefined,
  });
  // The volume allowance counts every byte of the body as it arrives (the body's size was bounded before, ADR 039).
  const allowance = canUpload ? uploadAllowanceOf({ userEmail: viewer.user?.email ?? null, isStaff: viewer.isStaff }, getClientAddress(context)) : null;
  if (allowance && (await isRateLimited(db, allowance.key, allowance.limitMiB))) {
    countUploadRefusal(allowance.reason);
    return redirectWithToast("/order", volumeToast(allowance.reason));
  }
  const meter = allowance ? volumeMeter(db, allowance) : null;
  // Files are filed under the step their form was sent from (its `step` field comes before them):
  // a form of a step the order has left — a late post, another tab, a forged one — stores nothing.
  const currentStep = order ? clampStep(order.wizard_step) : null;
  const stepChecked: typeof upload.handler = async (part) => {
    const posted = upload.fields().get("step");
    if (canUpload && typeof part.filename === "string" && part.filename !== "" && posted !== undefined && Number(posted) !== currentStep) throw new UploadStepMoved();
    return upload.handler(part);
  };
  try {
    form = await parseMultipartFormData(meter ? meteredRequest(request, meter) : request, stepChecked);
  } catch (error) {
    // A body without its boundary, cut off midway or over an allowance: nothing of it is kept.
    await upload.discardStored();
    if (error instanceof UploadStepMoved) throw await conflict(request, context);
    if (error instanceof UploadVolumeExceeded || error instanceof UploadOverQuota) countUploadRefusal(error instanceof UploadOverQuota ? (clinicLeft < orderRoom ? "clinic_quota" : "quota") : error.reason);
    if (error instanceof UploadVolumeExceeded) return redirectWithToast("/order", volumeToast(error.reason));
    if (error instanceof UploadOverQuota) return redirectWithToast("/order", clinicLeft < orderRoom ? clinicQuotaToast : orderQuotaToast);
    if (request.signal.aborted) throw error;
    if (error instanceof MultipartTextTooLargeError) throw await tooLarge(request, context, formatFileSize(MAX_MULTIPART_FIELD_BYTES, (await getLocale(request, context)).language));
    throw await badRequest(request, context);
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
          ...(s.source ? { source: s.source } : {}),
        })),
      );
    } catch (error) {
      await discardUnrecorded(
        db,
        getStorage(),
        order.id,
        stored.flatMap((s) => [s.key, ...(s.source ? [s.source.key] : [])]),
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
