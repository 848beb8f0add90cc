import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { listOrderFiles } from "~/modules/backoffice/dashboard.server";
import { fileCorrectionRefusal, fileCorrectionSchema, FILE_ERRORS } from "~/modules/backoffice/order-files-forms.server";
import { patientFilesId } from "~/modules/backoffice/order-files";
import { getDb } from "~/modules/db/db.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";
import { correctFile, fileCorrectionsOf } from "~/modules/orders/files.server";
import { findOrder, isUuid, shortOrderNumber } from "~/modules/orders/orders.server";
import { patientFolderName } from "~/modules/orders/patients.server";
import { factsText } from "~/modules/packer/facts-text";

/** Where the close link leads, as sent (a return address may run long); redirectTarget decides. */
const orderFilesQuery = z.object({ back: asSent });

/** The files page's own address, keeping where its close link leads. */
const filesPageUrl = (orderId: string, back: string) => `/backoffice/orders/${orderId}/files?back=${encodeURIComponent(back)}`;

export async function loadOrderFilesPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  const order = await findOrder(db, params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const number = shortOrderNumber(order.id);
  const back = await redirectTarget(request, context, readQuery(request, orderFilesQuery).back, "/backoffice");
  const [patients, corrections] = await Promise.all([listOrderFiles(db, order.id), fileCorrectionsOf(db, [order.id])]);
  return {
    title: t("bo.orders.files.title", { number }),
    back,
    action: filesPageUrl(order.id, back),
    patients,
    corrections,
  };
}

/**
 * Staff's correction of a file's jaw and step (ADR 058): recorded with who made it in the order's
 * history of its files, answered by a toast on the files page at the file's patient.
 */
export async function orderFilesPageAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const orderId = params.orderId ?? "";
  const back = await redirectTarget(request, context, readQuery(request, orderFilesQuery).back, "/backoffice");
  const db = await getDb();
  const order = isUuid(orderId) ? await findOrder(db, orderId) : undefined;
  if (!order) return redirectWithToast(back, { type: "error", title: "bo.orders.files.errors.title", description: "bo.orders.errors.notFound" });
  const page = filesPageUrl(order.id, back);
  const submission = await readSubmission(request, context, fileCorrectionSchema);
  if (submission.status !== "success") return redirectWithToast(page, { type: "error", title: "bo.orders.files.errors.title", description: fileCorrectionRefusal(submission.error) });
  const { patientId, type, path, jaw, step } = submission.value;
  let result;
  try {
    result = await correctFile(db, order.id, { patientId, type, storagePath: path, jaw, stepNumber: step }, staff.actorLabel);
  } catch (error) {
    logger.error("back-office: a file's jaw and step could not be corrected:", error);
    return redirectWithToast(page, { type: "error", title: "bo.orders.files.errors.title", description: "bo.orders.files.errors.failed" });
  }
  if (!result.ok) return redirectWithToast(page, { type: "error", title: "bo.orders.files.errors.title", description: result.reason === "step_required" ? FILE_ERRORS.stepRequired : FILE_ERRORS.notFound });
  const folder = await patientFolderName(db, patientId);
  const at = folder ? `${page}#${patientFilesId(folder)}` : page;
  if (!result.changed) return redirectWithToast(at, { type: "info", title: "bo.orders.files.unchanged", description: "bo.orders.files.unchangedFile", values: { name: result.name } });
  const t = await getRequestTranslator(request, context);
  return redirectWithToast(at, {
    type: "success",
    title: "bo.orders.files.corrected",
    lines: [{ key: "bo.orders.files.change", values: { name: result.name, from: factsText(t, result.from), to: factsText(t, result.to) } }],
  });
}
