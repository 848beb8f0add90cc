import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { MAX_TEST_FILE_BYTES, receiveTestUpload, testFolder } from "~/modules/ftp/send-test.server";
import { asSent, oneOf, readQuery } from "~/modules/http/request/list-query";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

const ERRORS = ["noFile", "tooLarge", "failed"] as const;
type SendError = (typeof ERRORS)[number];

/** A value of the address as sent, null when absent: the page checks the path and the size itself. */
/** The test's outcome as the upload left it: the file sent and its size, or why it was not. */
const sendTestQuery = z.object({ sent: asSent, size: asSent, error: oneOf(ERRORS, null) });

export async function loadSendTestPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const { sent, size: sentSize, error } = readQuery(request, sendTestQuery);
  const folder = testFolder(getFileServer());
  const size = Number(sentSize);
  let result: { ok: true; path: string; size: number } | { ok: false; error: SendError } | null = null;
  if (sent && sent.startsWith(`${folder}/`) && /^[A-Za-z0-9._/-]+$/.test(sent) && !sent.includes("/.") && Number.isSafeInteger(size) && size >= 0) {
    result = { ok: true, path: sent, size };
  } else if (error) {
    result = { ok: false, error };
  }
  return { title: t("ftp.sendTest.title"), folder, maxBytes: MAX_TEST_FILE_BYTES, result };
}

export async function sendTestPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const result = await receiveTestUpload(request, getFileServer());
  const params = new URLSearchParams(result.ok ? { sent: result.path, size: String(result.size) } : { error: result.error });
  return redirect(`/send-test?${params}`);
}
