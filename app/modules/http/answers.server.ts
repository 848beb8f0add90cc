import type { Language } from "~/modules/i18n/languages";
import { textTranslator } from "~/modules/translations/overrides.server";
import { isFileType } from "~/modules/uploads/file-names";
import { fileListSaveFailure } from "~/modules/uploads/save-failure";
import { getLocale } from "./request-context.server";

/**
 * Error answers of resource routes (uploads, file downloads, logos, cron, webhooks) in the reader's
 * language (issue 19, item 2; ADR 024): the language of the request as every page chooses it (path,
 * saved choice, market), which the caller takes from the request context. Text answers carry the sentence; JSON answers keep their machine-readable
 * `error` code and add `message`.
 */

export type AnswerKey =
  | "badRequest"
  | "unauthorized"
  | "forbidden"
  | "notFound"
  | "methodNotAllowed"
  | "conflict"
  | "gone"
  | "tooLarge"
  | "unsupportedType"
  | "tooMany"
  | "serverError"
  | "unavailable"
  | "upload.offsetRequired"
  | "upload.lengthRequired"
  | "upload.contentTypeRequired"
  | "upload.metadataInvalid"
  | "upload.offsetConflict"
  | "upload.notFound"
  | "upload.tooLarge";

const STATUS_KEYS: Record<number, AnswerKey> = {
  400: "badRequest",
  401: "unauthorized",
  403: "forbidden",
  404: "notFound",
  405: "methodNotAllowed",
  409: "conflict",
  410: "gone",
  413: "tooLarge",
  415: "unsupportedType",
  423: "conflict",
  429: "tooMany",
  503: "unavailable",
};

export function statusKey(status: number): AnswerKey {
  return STATUS_KEYS[status] ?? (status >= 500 ? "serverError" : "badRequest");
}

/** The sentence of an answer in the reader's language. */
export async function answerText(language: Language, key: AnswerKey, extra?: string): Promise<string> {
  const t = await textTranslator(language);
  return extra ? t(extra) : t(`answers.${key}`);
}

/** A plain-text error answer in the request's language. */
export async function textAnswer(language: Language, status: number, key: AnswerKey = statusKey(status), headers: HeadersInit = {}): Promise<Response> {
  const t = await textTranslator(language);
  const response = new Response(`${t(`answers.${key}`)}\n`, { status, headers });
  response.headers.set("Content-Type", "text/plain; charset=utf-8");
  response.headers.set("Content-Language", language);
  return response;
}

/** A JSON error answer: the code for programs, `message` for people, in the request's language. */
export async function jsonAnswer(language: Language, status: number, body: Record<string, unknown>, options: { key?: AnswerKey; messageKey?: string; headers?: HeadersInit } = {}): Promise<Response> {
  const t = await textTranslator(language);
  const message = t(options.messageKey ?? `answers.${options.key ?? statusKey(status)}`);
  const response = Response.json({ ...body, message }, { status, headers: options.headers });
  response.headers.set("Content-Language", language);
  return response;
}

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
  if (refusal.error === "save" && isFileType(refusal.fileType)) {
    const { title, description } = fileListSaveFailure(refusal.fileType);
    const t = await textTranslator(language);
    return jsonAnswer(language, status, { ...refusal, title: t(title) }, { messageKey: description, headers });
  }
  return jsonAnswer(language, status, refusal, { messageKey: `uploads.causes.${refusal.error}`, headers });
}

/** The answer of a resource route while the database is away (server.mts, before Remix hands out a context): 503, Retry-After, the reader's language. */
export async function outageAnswer(request: Request): Promise<Response> {
  return textAnswer((await getLocale(request)).language, 503, "unavailable", { "Retry-After": "30" });
}
