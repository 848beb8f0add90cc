/** What the HTTP server (server.mts) passes to every loader and action. */
export interface AppLoadContext {
  clientIp: string;
}

export function clientIp(request: Request, context?: unknown): string {
  const fromContext = (context as Partial<AppLoadContext> | undefined)?.clientIp;
  return fromContext || "unknown";
}

/** The answer to a request whose body is not what the form sends (the error page says "Invalid request"). */
export function badRequest(): Response {
  return new Response("Bad request", { status: 400 });
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
    throw badRequest();
  }
}
