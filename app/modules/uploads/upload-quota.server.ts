import { type AppConfig, getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { giveBack, hitRateLimit, takeWithinLimit } from "~/modules/security/rate-limit.server";
import { limitKey } from "~/modules/http/request/client-address";

/**
 * Upload volume (DESIGN §4.14, ADR 039), counted from the bytes that arrive, never from a declared
 * length: anonymous visitors per client address and hour, signed-in clients per account and day
 * (`UPLOAD_VOLUME_*`); staff upload on a customer's behalf and are not counted. The counts live in
 * `rate_limits` (PostgreSQL), so every process of the app adds to the same one.
 */

const MiB = 1024 * 1024;
/** Bytes counted in the database at a time: one write per 4 MiB that arrive. */
const STEP_BYTES = 4 * MiB;

export interface UploadAllowance {
  key: string;
  /** The allowance in MiB, the unit of the counter. */
  limitMiB: number;
  windowSeconds: number;
  /** The text that says why, in the plain form's and the resumable upload's words. */
  reason: "rate_limited" | "daily_limit";
}

/** Whose allowance the bytes of an upload count against, or null for staff. */
export function uploadAllowanceOf(
  who: { userEmail: string | null; isStaff: boolean },
  clientIp: string,
  limits: Pick<AppConfig["uploads"], "anonymousBytesPerHour" | "clientBytesPerDay"> = getConfig().uploads,
): UploadAllowance | null {
  if (who.isStaff) return null;
  const key = limitKey("upload", { clientAddress: clientIp, accountEmail: who.userEmail });
  if (who.userEmail) {
    return { key, limitMiB: Math.floor(limits.clientBytesPerDay / MiB), windowSeconds: 24 * 3600, reason: "daily_limit" };
  }
  return { key, limitMiB: Math.floor(limits.anonymousBytesPerHour / MiB), windowSeconds: 3600, reason: "rate_limited" };
}

export class UploadVolumeExceeded extends Error {
  constructor(
    public readonly reason: UploadAllowance["reason"],
    /** Until the allowance's window ends (`Retry-After`). */
    public readonly retryAfterSeconds = 3600,
  ) {
    super("The upload volume allowance is used up");
    this.name = "UploadVolumeExceeded";
  }
}

export interface VolumeMeter {
  /** Counts bytes that arrived; rejects with UploadVolumeExceeded once the allowance is passed. */
  count(bytes: number): Promise<void>;
  /** Counts what is left at the end of the body. */
  settle(): Promise<void>;
  readonly exceeded: UploadVolumeExceeded | undefined;
}

/**
 * Counts the bytes of one request against an allowance, 4 MiB at a time (and the rest, rounded
 * up to a MiB, at the end). A request passes the allowance by at most one step before it is
 * refused; every counted byte stays counted, refused or not — it arrived.
 */
export function volumeMeter(db: DB, allowance: UploadAllowance): VolumeMeter {
  let uncounted = 0;
  let exceeded: UploadVolumeExceeded | undefined;
  const charge = async (mebibytes: number) => {
    if (exceeded) throw exceeded;
    const result = await hitRateLimit(db, allowance.key, allowance.limitMiB, allowance.windowSeconds, mebibytes);
    if (!result.allowed) throw (exceeded = new UploadVolumeExceeded(allowance.reason, result.retryAfterSeconds));
  };
  return {
    async count(bytes) {
      uncounted += bytes;
      if (uncounted < STEP_BYTES) return;
      const mebibytes = Math.floor(uncounted / MiB);
      uncounted -= mebibytes * MiB;
      await charge(mebibytes);
    },
    async settle() {
      if (uncounted > 0) await charge(Math.ceil(uncounted / MiB));
      uncounted = 0;
    },
    get exceeded() {
      return exceeded;
    },
  };
}

/**
 * Charges a whole file against an allowance before it is stored: a compressed upload is charged the
 * size of the file it announces, which is what it stores (ADR 056), not the few bytes on the wire.
 * Throws UploadVolumeExceeded when that takes the allowance past its limit (the charge stays: it was asked for).
 */
export async function chargeAnnouncedFile(db: DB, allowance: UploadAllowance, fileBytes: number): Promise<void> {
  const result = await hitRateLimit(db, allowance.key, allowance.limitMiB, allowance.windowSeconds, Math.max(1, Math.ceil(fileBytes / MiB)));
  if (!result.allowed) throw new UploadVolumeExceeded(allowance.reason, result.retryAfterSeconds);
}

/** What a charge taken ahead gives back when what it paid for is not stored after all. */
export type Refund = () => Promise<void>;

/**
 * Charges files the storage copies for an order (ADR 082: "order again"), before any copy is made:
 * the same allowance as an upload, rounded up to a MiB. Past the allowance nothing is charged and
 * the copies are refused; a charge taken comes with its refund, for copies that end up not stored.
 */
export async function chargeStoredCopies(db: DB, allowance: UploadAllowance, bytes: number): Promise<{ ok: true; refund: Refund } | { ok: false; refusal: UploadVolumeExceeded }> {
  const mebibytes = Math.ceil(bytes / MiB);
  if (mebibytes === 0) return { ok: true, refund: async () => undefined };
  const refused = await takeWithinLimit(db, allowance.key, allowance.limitMiB, allowance.windowSeconds, mebibytes);
  if (refused) return { ok: false, refusal: new UploadVolumeExceeded(allowance.reason, refused.retryAfterSeconds) };
  return { ok: true, refund: () => giveBack(db, allowance.key, mebibytes) };
}

/**
 * The same request with its body counted by `meter` on the way: the reader gets each chunk once
 * it is counted, and the body fails with UploadVolumeExceeded when the allowance is passed.
 */
export function meteredRequest(request: Request, meter: VolumeMeter): Request {
  if (!request.body) return request;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        await meter.count(chunk.byteLength);
        controller.enqueue(chunk);
      },
      async flush() {
        await meter.settle();
      },
    }),
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body: counted, signal: request.signal, duplex: "half" } as RequestInit);
}
