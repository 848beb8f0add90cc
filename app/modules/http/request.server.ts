import { getTranslator } from "~/modules/i18n/i18n.server";

/** What the HTTP server (server.mts) passes to every loader and action. */
export interface AppLoadContext {
  clientIp: string;
  /** A client-side data request (`….data`), not a document: the browser already runs the app. */
  dataRequest?: boolean;
  /** This answer's Content-Security-Policy nonce (serving-headers.server). */
  cspNonce: string;
  /** This request's id, sent back as X-Request-Id and shown on error pages. */
  requestId: string;
}

export function isDataRequest(context?: unknown): boolean {
  return Boolean((context as Partial<AppLoadContext> | undefined)?.dataRequest);
}

export function clientIp(request: Request, context?: unknown): string {
  const fromContext = (context as Partial<AppLoadContext> | undefined)?.clientIp;
  return fromContext || "unknown";
}

/**
 * The answer to a request whose body is not what the form sends. Pages show their own "Invalid
 * request" error page; resource routes send this text, in the request's language.
 */
export async function badRequest(request: Request): Promise<Response> {
  const { t } = await getTranslator(request);
  return new Response(`${t("errors.badRequest.title")}. ${t("errors.badRequest.text")}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The fields of a form post. A body that is not a form (JSON, plain text, a multipart body without
 * its boundary or cut off) is the sender's mistake, not the server's: it is refused with 400.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw await badRequest(request);
  }
}
