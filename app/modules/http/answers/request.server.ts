import type { AppLoadContext } from "@remix-run/node";
import { getRequestTranslator } from "../request/request-context.server";

/**
 * The answer to a request whose body is not what the form sends. Pages show their own "Invalid
 * request" error page; resource routes send this text, in the request's language (from its context).
 */
export async function badRequest(request: Request, context: AppLoadContext): Promise<Response> {
  const t = await getRequestTranslator(request, context);
  return new Response(`${t("errors.badRequest.title")}. ${t("errors.badRequest.text")}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The answer to a body with a part larger than its route takes (a text field past its limit), in the request's language. */
export async function tooLarge(request: Request, context: AppLoadContext, limit: string): Promise<Response> {
  const t = await getRequestTranslator(request, context);
  return new Response(`${t("answers.bodyTooLargeTitle")}. ${t("answers.bodyTooLarge", { limit })}\n`, { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8", Connection: "close" } });
}

/** The answer to a post made for a state the resource has left (a step the order moved on from), in the request's language. */
export async function conflict(request: Request, context: AppLoadContext): Promise<Response> {
  const t = await getRequestTranslator(request, context);
  return new Response(`${t("errors.conflict.title")}. ${t("errors.conflict.text")}\n`, { status: 409, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The fields of a form post. A body that is not a form (JSON, plain text, a multipart body without
 * its boundary or cut off) is the sender's mistake, not the server's: it is refused with 400.
 */
export async function readFormData(request: Request, context: AppLoadContext): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw await badRequest(request, context);
  }
}
