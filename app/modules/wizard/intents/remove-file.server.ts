import { redirect } from "@remix-run/node";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getStorage } from "~/modules/storage/storage.server";
import { removeFile, storedFilesOf } from "~/modules/orders/files.server";
import type { IntentArgs } from "./types";
import { logger } from "~/modules/log/logger.server";

/** "remove:<type>:<path>": takes a file off the current patient, then out of storage. */
export async function removeOrderFile({ db, order, patient, argument }: IntentArgs) {
  const [type, ...rest] = (argument ?? "").split(":");
  const path = rest.join(":");
  if (!patient || !(type === "matrix" || type === "aligners" || type === "retainer")) return redirect("/order");
  // A PLY or OBJ goes with the STL made from it (ADR 102).
  const source = storedFilesOf(patient, type).find((file) => file.storagePath === path)?.source?.storagePath;
  const removed = await removeFile(db, order.id, patient.id, type, path);
  if (!removed)
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.files.removeFailedTitle",
      description: "wizard.files.removeFailed",
    });
  try {
    await getStorage().delete("orders", source ? [path, source] : [path]);
  } catch (error) {
    // The file left the order; its copy stays in storage, and the doctor is told so (customer side §8).
    logger.error("file removed from the order but not from storage:", path, error);
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.files.removeFailedTitle",
      description: "wizard.files.removeFailed",
    });
  }
  return redirectWithToast("/order", {
    type: "success",
    title: "wizard.files.removed",
  });
}
