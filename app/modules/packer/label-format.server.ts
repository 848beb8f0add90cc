import { type ActionFunctionArgs, type AppLoadContext, redirect } from "@remix-run/node";
import { getBrowserChoices } from "~/modules/http/request/request-context.server";
import { z } from "zod";
import { requirePacker } from "~/modules/auth/guards.server";
import { badRequest } from "~/modules/http/answers/request.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { cookies } from "~/modules/http/request/cookies.server";
import { packerListUrl } from "./filter";
import { LABEL_FORMATS, type LabelFormat } from "./label-urls";

/**
 * Which labels a packing station opens (ADR 103): the HTML pages, for browsers that honour `@page`,
 * or the PDFs made on the server with the exact page size. Chosen on the list and remembered by this
 * workstation's browser in `packer_labels`; anything else there reads as HTML.
 */


export async function readLabelFormat(request: Request, context: AppLoadContext): Promise<LabelFormat> {
  return (await getBrowserChoices(request, context)).packerLabels;
}

export const labelFormatSchema = z.object({
  format: z.enum(LABEL_FORMATS),
  /** The list's query string, to come back to the same view. */
  back: z.string().max(1000).optional(),
});

/** `POST /packer/labels`: remembers the format on this workstation and comes back to the list. */
export async function labelFormatAction({ request, context }: ActionFunctionArgs) {
  await requirePacker(request, context, () => redirect("/packer"));
  const submission = await readSubmission(request, context, labelFormatSchema);
  if (submission.status !== "success") throw await badRequest(request, context);
  return redirect(packerListUrl(submission.value.back?.replace(/^\?/, "") ?? null), { headers: { "Set-Cookie": await cookies.packerLabels().serialize(submission.value.format) } });
}
