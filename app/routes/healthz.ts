import { sql } from "kysely";
import { getDb } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";

/** Health check for the platform: 200 when the database answers, 503 otherwise. */
export async function loader() {
  const started = Date.now();
  try {
    const db = await getDb();
    await sql`select 1`.execute(db);
    return Response.json({ ok: true, database: "up", ms: Date.now() - started }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    logger.error("health check failed:", error);
    return Response.json({ ok: false, database: "down" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
