/**
 * The handler of an action's intent (ADR 030): only the table's own entries, so a form that sends
 * "toString" or "constructor" finds nothing, as any other unknown intent.
 */
export function intentHandler<H>(table: Readonly<Record<string, H>>, intent: unknown): H | undefined {
  return typeof intent === "string" && Object.hasOwn(table, intent) ? table[intent] : undefined;
}
