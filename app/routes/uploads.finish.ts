import type { ActionFunctionArgs } from "@remix-run/node";
import { finishAgain } from "~/modules/uploads/tus.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { finishAgainSchema } from "~/modules/uploads/forms";
import { jsonAnswer, textAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { refusalAnswer } from "~/modules/uploads/answers.server";

/**
 * POST /uploads/finish {id, uploadKey}: the finishing step of a resumable upload, asked for again
 * when the browser saw the upload complete without the reply of its last request. JSON like the
 * tus route's last reply: `{ ok: true, file }` or `{ ok: false, error }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, finishAgainSchema);
  const form = submission.status === "success" ? submission.value : {};
  const { language } = await getLocale(request, context);
  const id = form.id ?? "";
  const uploadKey = form.uploadKey ?? "";
  if (!id || !uploadKey) return jsonAnswer(language, 400, { ok: false, error: "gone" }, { messageKey: "uploads.causes.gone" });
  const { status, reply } = await finishAgain(request, context, id, uploadKey);
  if (!reply) return textAnswer(language, 404);
  if (!reply.ok) return refusalAnswer(language, status, reply, { "Cache-Control": "no-store" });
  return Response.json(reply, { status, headers: { "Cache-Control": "no-store" } });
}
