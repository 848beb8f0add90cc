/** What the HTTP server (server.mts) passes to every loader and action. */
export interface AppLoadContext {
  clientIp: string;
}

export function clientIp(request: Request, context?: unknown): string {
  const fromContext = (context as Partial<AppLoadContext> | undefined)?.clientIp;
  return fromContext || "unknown";
}
