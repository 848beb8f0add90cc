/** What the browser may read of a 404 answer made by `not-found.server.ts`. */

/** The title a thrown `notFound` carries, if the error is one. */
export function notFoundTitle(error: unknown): string | undefined {
  const body = (error as { data?: unknown } | null)?.data;
  return typeof body === "object" && body !== null && typeof (body as { title?: unknown }).title === "string" ? (body as { title: string }).title : undefined;
}
