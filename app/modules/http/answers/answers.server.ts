import type { Language } from "~/modules/i18n/languages";
import { textTranslator } from "~/modules/translations/overrides.server";
import { getLocale } from "../request/request-context.server";

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

/** The answer of a resource route while the database is away (server.mts, before Remix hands out a context): 503, Retry-After, the reader's language. */
export async function outageAnswer(request: Request): Promise<Response> {
  return textAnswer((await getLocale(request)).language, 503, "unavailable", { "Retry-After": "30" });
}
