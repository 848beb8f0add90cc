import { COUNTED_TABLES } from "./manifest";

/**
 * The rows a backup counts, as plain SQL: a backup runs it inside pg_dump's snapshot or on the
 * embedded database's connection held for its dump, so it takes a bare query function rather than
 * the app's Kysely. Where rows name stored files is the order data's (orders/stored-files.server.ts,
 * `filesNamedByRows`).
 */
export type RunQuery = <Row>(text: string) => Promise<Row[]>;

export async function countRows(run: RunQuery): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const rows = await run<{ count: number }>(`select count(*)::int as count from ${table}`);
    counts[table] = Number(rows[0]?.count ?? 0);
  }
  return counts;
}
