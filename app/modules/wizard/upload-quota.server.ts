import type { DB } from "~/modules/db/db.server";
import { clientIp } from "~/modules/http/request.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";

/** Anonymous upload volume per IP (DESIGN §4.14): 3 GiB an hour, counted in MiB from Content-Length. */
export const ANONYMOUS_UPLOAD_MIB_PER_HOUR = 3 * 1024;

export async function rateLimitUploadBytes(db: DB, request: Request, context: unknown): Promise<boolean> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  const mebibytes = Math.max(1, Math.ceil((Number.isFinite(declared) ? declared : 0) / 1_048_576));
  const result = await hitRateLimit(db, `upload:${clientIp(request, context)}`, ANONYMOUS_UPLOAD_MIB_PER_HOUR, 3600, mebibytes);
  return result.allowed;
}
