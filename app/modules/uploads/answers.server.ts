import type { Language } from "~/modules/i18n/languages";
import { type AnswerKey, jsonAnswer, statusKey, textAnswer } from "~/modules/http/answers/answers.server";
import { textTranslator } from "~/modules/translations/overrides.server";
import { isFileType } from "./file-names";
import { fileListSaveFailure } from "./save-failure";
import { countUploadRefusal } from "~/modules/metrics/count.server";

/**
 * The answers of the resumable upload (ADR 017) in the reader's language, built on the resource
 * routes' answers (`http/answers/answers.server.ts`): the protocol's English sentences and our own refusals,
 * which name the upload's file types and so belong with them.
 */

/** The fixed English bodies of @tus/server's protocol errors, and the texts that say the same. */
const TUS_BODIES: Array<[RegExp, AnswerKey]> = [
  [/^Upload-Offset header required/, "upload.offsetRequired"],
  [/^Upload-Length or Upload-Defer-Length header required/, "upload.lengthRequired"],
  [/^Content-Type header required/, "upload.contentTypeRequired"],
  [/^Upload-Metadata is invalid/, "upload.metadataInvalid"],
  [/^Upload-Offset conflict/, "upload.offsetConflict"],
  [/^The file for this url was not found/, "upload.notFound"],
  [/^The file for this url no longer exists/, "gone"],
  [/^(upload's size exceeded|Maximum size exceeded)/, "upload.tooLarge"],
];

/**
 * Puts a resumable-upload error answer into the reader's language: our own refusals (JSON with an
 * upload error code) get the page's sentence for that code, the protocol's English sentences ours.
 */
export async function localizeUploadAnswer(language: Language, response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const body = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Type");
  let refusal: unknown;
  try {
    refusal = JSON.parse(body);
  } catch {
    refusal = null;
  }
  if (refusal && typeof refusal === "object" && typeof (refusal as { error?: unknown }).error === "string") {
    return refusalAnswer(language, response.status, refusal as { error: string }, headers);
  }
  const key = TUS_BODIES.find(([pattern]) => pattern.test(body))?.[1] ?? statusKey(response.status);
  return textAnswer(language, response.status, key, headers);
}

/**
 * A resumable upload's refusal: its code, and the page's sentence for it. A file list the database
 * would not save is said in the plain form's words, with the title "Ошибка сохранения" (customer side §8).
 */
export async function refusalAnswer(language: Language, status: number, refusal: { error: string; fileType?: unknown }, headers: HeadersInit = {}): Promise<Response> {
  countUploadRefusal(refusal.error);
  if (refusal.error === "save" && isFileType(refusal.fileType)) {
    const { title, description } = fileListSaveFailure(refusal.fileType);
    const t = await textTranslator(language);
    return jsonAnswer(language, status, { ...refusal, title: t(title) }, { messageKey: description, headers });
  }
  return jsonAnswer(language, status, refusal, { messageKey: `uploads.causes.${refusal.error}`, headers });
}
