import { redirect } from "@remix-run/node";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { restoreStep } from "~/modules/orders/set-aside.server";
import { isFileType } from "~/modules/uploads/file-names";
import type { IntentArgs } from "./types";

/**
 * "Вернуть в заказ" ("unskip:<type>:<patient>", on the summary and on the upload step): the files a
 * confirmed skip set aside come back into the order and the step is no longer skipped (ADR 087). The
 * wizard stays where it is; the summary then names what the restored files still need. A type or
 * patient the order does not have changes nothing.
 */
export async function unskipStep({ db, order, patients, argument }: IntentArgs) {
  const [type, patientId] = (argument ?? "").split(":");
  const patient = patients.find((item) => item.id === patientId);
  if (!isFileType(type) || !patient) return redirect("/order");
  await restoreStep(db, order.id, patient.id, type);
  return redirectWithToast("/order", { type: "info", title: "wizard.toasts.unskippedTitle", description: "wizard.toasts.unskipped" });
}
