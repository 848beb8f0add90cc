/**
 * An upload's progress (ADR 054, "How progress is counted", and ADR 096). Two counts, kept apart:
 * - **held**: the bytes the server acknowledged, the `Upload-Offset` of its answers to the tus HEAD
 *   and PATCH requests, mapped back to the file's own bytes when the file goes up compressed or
 *   packed (ADR 033, 045). Only these make a file stored, and only these feed the time left.
 * - **on the wire**: within the chunk in flight, what the browser reports sent (`sending`). It never
 *   counts past that chunk, and chunks are sized to about CHUNK_TARGET_MS of the link
 *   (`nextChunkBytes`), so the bar moves every few seconds and runs ahead of what arrived by at
 *   most one chunk, however much the browser's and the network's buffers take at once.
 *
 * The time left comes from the rate of the last WINDOW_MS of acknowledgements and is told only once
 * it is stable: at least MIN_SAMPLES acknowledgements, and the finish time this one predicts agrees
 * with the one the previous predicted within MARGIN of the time left (or SLACK_MS). Otherwise none.
 *
 * Plain logic, no browser API: the upload code (tus-upload.client.ts) feeds it, the tests drive it.
 */

/** A chunk should take about this long on the link: the bar and the time left move at least this often. */
export const CHUNK_TARGET_MS = 2_000;
/** The smallest chunk: below it the request's own round trip costs more than the bar gains. */
export const MIN_CHUNK_BYTES = 256 * 1024;
/** The largest chunk: S3's smallest part (TUS_PART_BYTES), what a fast link sends at once. */
export const MAX_CHUNK_BYTES = 5 * 1024 * 1024;
/** The first chunk, before the link was measured: about 2 s at 2 Mbit/s. */
export const FIRST_CHUNK_BYTES = 512 * 1024;

/**
 * The next chunk's size from the last one: `bytes` acknowledged `elapsedMs` after it was started
 * (its round trip included), aimed at CHUNK_TARGET_MS, at most twice the last (a link that took one
 * chunk quickly into its buffers is not trusted with a much larger one), within the bounds.
 */
export function nextChunkBytes(bytes: number, elapsedMs: number, last: number): number {
  if (!(bytes > 0) || !(elapsedMs > 0)) return Math.max(MIN_CHUNK_BYTES, Math.min(MAX_CHUNK_BYTES, last));
  const aimed = Math.round((bytes / elapsedMs) * CHUNK_TARGET_MS);
  return Math.max(MIN_CHUNK_BYTES, Math.min(MAX_CHUNK_BYTES, 2 * last, aimed));
}

/** How far back the rate looks: long enough for a few 5 MiB chunks on a clinic's uplink. */
export const WINDOW_MS = 20_000;
/** Acknowledgements seen (the first one included) before a time left is told. */
export const MIN_SAMPLES = 3;
/** Two predicted finish times agree when they differ by at most this share of the time left… */
export const MARGIN = 0.25;
/** …or by at most this, whichever is more (a few seconds either way say the same). */
export const SLACK_MS = 2_000;

export interface Sample {
  /** When the acknowledgement arrived, in milliseconds. */
  at: number;
  /** The file's bytes the server holds. */
  bytes: number;
}

/** Whole percent of the file the server holds: 100 only when it holds all of it. */
export const percentOf = (bytes: number, total: number): number => (total <= 0 ? 0 : bytes >= total ? 100 : Math.max(0, Math.floor((bytes * 100) / total)));

/**
 * The bytes per millisecond of the samples within `windowMs` of the newest, measured from the
 * last sample before that window when there is one (so a window with a single acknowledgement
 * still spans an interval). Null while fewer than two samples or no time passed.
 */
export function rateOf(samples: readonly Sample[], windowMs = WINDOW_MS): number | null {
  const newest = samples.at(-1);
  if (!newest || samples.length < 2) return null;
  let first = samples.length - 2;
  while (first > 0 && samples[first]!.at >= newest.at - windowMs) first--;
  const oldest = samples[first]!;
  const elapsed = newest.at - oldest.at;
  return elapsed > 0 ? (newest.bytes - oldest.bytes) / elapsed : null;
}

/** Whether two predicted finish times, seen from `now`, say the same. */
export const agree = (earlier: number, later: number, now: number, margin = MARGIN, slackMs = SLACK_MS): boolean =>
  Math.abs(later - earlier) <= Math.max(slackMs, margin * Math.max(0, later - now));

export interface Progress {
  /** The file's bytes the server holds. */
  sent: number;
  /** The bytes of the upload (compressed, when it is) the server holds: its `Upload-Offset`. */
  wire: number;
  /** When the upload should end (ms, the clock of the samples), once the estimate is stable. */
  finishAt?: number;
}

export interface ProgressOptions {
  /** The file's own size. */
  fileBytes: number;
  /** The file bytes an upload offset stands for (a compressed upload); the offset itself otherwise. */
  fileBytesAt?: (wire: number) => number;
  windowMs?: number;
  minSamples?: number;
}

/**
 * One upload's progress: `acknowledged(offset, at)` for every offset the server confirms, in the
 * order they arrive. An offset below the last one (the upload started again from an earlier point)
 * starts the rate afresh.
 */
export function uploadProgress({ fileBytes, fileBytesAt = (wire) => wire, windowMs = WINDOW_MS, minSamples = MIN_SAMPLES }: ProgressOptions) {
  let samples: Sample[] = [];
  /** Acknowledgements since the rate started (the window keeps fewer). */
  let seen = 0;
  let predicted: number | null = null;
  return {
    /**
     * What is on the wire within the chunk in flight: `wire` bytes of the upload sent (the browser's
     * count, bounded by the chunk it is sending). Never less than what the server holds; no time left
     * of its own (that comes from acknowledgements only).
     */
    sending(wire: number): Progress {
      const held = samples.at(-1)?.bytes ?? 0;
      return { sent: Math.max(held, Math.min(fileBytes, Math.max(0, fileBytesAt(wire)))), wire };
    },
    acknowledged(wire: number, at: number): Progress {
      const sent = Math.min(fileBytes, Math.max(0, fileBytesAt(wire)));
      const last = samples.at(-1);
      if (last && sent < last.bytes) {
        samples = [];
        seen = 0;
        predicted = null;
      }
      samples.push({ at, bytes: sent });
      // Older samples than the window's anchor are never looked at again.
      while (samples.length > 2 && samples[1]!.at < at - windowMs) samples.shift();
      const rate = rateOf(samples, windowMs);
      const finishAt = rate && rate > 0 && sent < fileBytes ? at + (fileBytes - sent) / rate : null;
      const earlier = predicted;
      predicted = finishAt;
      seen++;
      const stable = finishAt !== null && earlier !== null && seen >= minSamples && agree(earlier, finishAt, at);
      return stable ? { sent, wire, finishAt } : { sent, wire };
    },
  };
}
