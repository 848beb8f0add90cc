import type { ActionFunctionArgs } from "@remix-run/node";
import { finishAgain } from "~/modules/uploads/tus.server";
import { readFormData } from "~/modules/http/request.server";
import { jsonAnswer, textAnswer } from "~/modules/http/answers.server";
import { getLocale } from "~/modules/http/request-context.server";
import { refusalAnswer } from "~/modules/uploads/answers.server";

/**
 * POST /uploads/finish {id, uploadKey}: the finishing step of a resumable upload, asked for again
 * when the browser saw the upload complete without the reply of its last request. JSON like the
 * tus route's last reply: `{ ok: true, file }` or `{ ok: false, error }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const { language } = await getLocale(request, context);
  const id = String(form.get("id") ?? "");
  const uploadKey = String(form.get("uploadKey") ?? "");
  if (!id || !uploadKey) return jsonAnswer(language, 400, { ok: false, error: "gone" }, { messageKey: "uploads.causes.gone" });
  const { status, reply } = await finishAgain(request, context, id, uploadKey);
  if (!reply) return textAnswer(language, 404);
  if (!reply.ok) return refusalAnswer(language, status, reply, { "Cache-Control": "no-store" });
  return Response.json(reply, { status, headers: { "Cache-Control": "no-store" } });
}
