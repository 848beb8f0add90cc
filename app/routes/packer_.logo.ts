import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { requirePacker } from "~/modules/auth/guards.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast, type Toast } from "~/modules/http/answers/toast.server";
import { packerListUrl } from "~/modules/packer/filter";
import { logoKey } from "~/modules/packer/logo-names.server";
import { createLogoUploadHandler, LogoRequestTooLarge } from "~/modules/packer/logo-upload.server";
import { getPackerOrder } from "~/modules/packer/packer.server";
import { getStorage } from "~/modules/storage/storage.server";
import { isMultipartRequest, parseMultipartFormData } from "~/modules/uploads/multipart.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { logger } from "~/modules/log/logger.server";

/**
 * Logo upload from an order card (staff-partner-packer §5): `POST /packer/logo?order=<id>&back=<list query>`,
 * multipart with one `logo` file. The logo belongs to the order's e-mail and replaces the one there was.
 */

const failed = (reasonKey: string): Toast => ({
  type: "error",
  title: "packer.toasts.error",
  description: "packer.toasts.logoFailed",
  lines: [{ key: reasonKey }],
});

/** The order the logo is for, and the list the packer came from. */
const logoQuery = z.object({ order: asSent, back: asSent });

export async function loader() {
  return redirect("/packer");
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requirePacker(request, context, () => redirect("/packer"));
  const query = readQuery(request, logoQuery);
  const order = await getPackerOrder(await getDb(), query.order ?? "");
  if (!order) throw await textAnswer((await getLocale(request, context)).language, 404);
  const back = packerListUrl(query.back, `o-${order.id}`);
  if (!order.email) return redirectWithToast(back, failed("packer.logo.noEmail"));
  if (!isMultipartRequest(request)) return redirectWithToast(back, failed("packer.logo.errors.empty"));
  // The body is bounded as it arrives (BODY_LIMIT_LOGO, ADR 039); the handler refuses a logo over its own size.

  const upload = createLogoUploadHandler({ storage: getStorage(), key: logoKey(order.email) });
  try {
    await parseMultipartFormData(request, upload.handler);
  } catch (error) {
    if (error instanceof LogoRequestTooLarge) return redirectWithToast(back, failed("packer.logo.errors.size"));
    logger.error("packer: logo upload failed:", error);
    return redirectWithToast(back, failed("packer.logo.errors.storage"));
  }
  const result = upload.result();
  if (!result) return redirectWithToast(back, failed("packer.logo.errors.empty"));
  if (!result.ok) {
    if (result.reason === "storage") logger.error("packer: logo could not be stored:", result.message);
    return redirectWithToast(back, failed(`packer.logo.errors.${result.reason}`));
  }
  return redirectWithToast(back, { type: "success", title: "packer.toasts.logoUpdated" });
}
