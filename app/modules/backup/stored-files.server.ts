import { COUNTED_TABLES } from "./manifest";

/**
 * Where rows name stored files, as plain SQL: a backup runs it inside pg_dump's snapshot or on a copy
 * of the embedded database, so it takes a bare query function rather than the app's Kysely.
 */
export type RunQuery = <Row>(text: string) => Promise<Row[]>;

/** A file a patient's row names: its key in the `orders` bucket and the size recorded at upload. */
export interface NamedFile {
  key: string;
  size: number;
}

/**
 * Every stored file the orders' rows name, sorted by key in the storage's byte order: the one place
 * that knows where rows name files (the patients' three file lists; staff corrections and queue
 * entries name the same keys). An order whose folder the service removed (`storage_removed_at`:
 * retention's models pass, ADR 074, or staff on the storage page, ADR 063) keeps its lists as a
 * record but names no stored file: at five years most delivered orders are such.
 */
export const FILES_NAMED_BY_ROWS = `
  select distinct on (f->>'storagePath' collate "C") f->>'storagePath' as key, f->>'size' as size
  from orders_patients p
       join orders o on o.id = p.order_id and o.storage_removed_at is null
       cross join lateral jsonb_array_elements(p.matrix_files_info || p.aligner_files_info || p.retainer_files_info) f
  where f->>'storagePath' is not null
  order by f->>'storagePath' collate "C"`;

export async function filesNamedByRows(run: RunQuery): Promise<NamedFile[]> {
  const rows = await run<{ key: string; size: string | number | null }>(FILES_NAMED_BY_ROWS);
  return rows.map((row) => ({ key: row.key, size: Number(row.size ?? 0) }));
}

export async function countRows(run: RunQuery): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const rows = await run<{ count: number }>(`select count(*)::int as count from ${table}`);
    counts[table] = Number(rows[0]?.count ?? 0);
  }
  return counts;
}
