import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { MAX_TEST_FILE_BYTES, receiveTestUpload, testFolder } from "~/modules/ftp/send-test.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";

const ERRORS = ["noFile", "tooLarge", "failed"] as const;
type SendError = (typeof ERRORS)[number];

export async function loadSendTestPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const params = new URL(request.url).searchParams;
  const folder = testFolder(getFileServer());
  const sent = params.get("sent");
  const size = Number(params.get("size"));
  const error = params.get("error");
  let result: { ok: true; path: string; size: number } | { ok: false; error: SendError } | null = null;
  if (sent && sent.startsWith(`${folder}/`) && /^[A-Za-z0-9._/-]+$/.test(sent) && !sent.includes("/.") && Number.isSafeInteger(size) && size >= 0) {
    result = { ok: true, path: sent, size };
  } else if ((ERRORS as readonly string[]).includes(error ?? "")) {
    result = { ok: false, error: error as SendError };
  }
  return { title: t("ftp.sendTest.title"), folder, maxBytes: MAX_TEST_FILE_BYTES, result };
}

export async function sendTestPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const result = await receiveTestUpload(request, getFileServer());
  const params = new URLSearchParams(result.ok ? { sent: result.path, size: String(result.size) } : { error: result.error });
  return redirect(`/send-test?${params}`);
}
