import type { ActionFunctionArgs } from "@remix-run/node";
import { finishAgain } from "~/modules/uploads/tus.server";
import { readFormData } from "~/modules/http/request.server";

/**
 * POST /uploads/finish {id, uploadKey}: the finishing step of a resumable upload, asked for again
 * when the browser saw the upload complete without the reply of its last request. JSON like the
 * tus route's last reply: `{ ok: true, file }` or `{ ok: false, error }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const id = String(form.get("id") ?? "");
  const uploadKey = String(form.get("uploadKey") ?? "");
  if (!id || !uploadKey) return Response.json({ ok: false, error: "gone" }, { status: 400 });
  const { status, reply } = await finishAgain(request, context, id, uploadKey);
  if (!reply) return new Response("Not found", { status: 404 });
  return Response.json(reply, { status, headers: { "Cache-Control": "no-store" } });
}
