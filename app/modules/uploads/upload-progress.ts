/**
 * An upload's progress as the server confirmed it (ADR 054, "How progress is counted"). The only
 * bytes counted are those the server acknowledged: the `Upload-Offset` of its answers to the tus
 * HEAD and PATCH requests, mapped back to the file's own bytes when the file goes up compressed or
 * packed (ADR 033, 045). What the browser has handed to its network stack is not counted: on a slow
 * link that runs far ahead of what arrived.
 *
 * The time left comes from the rate of the last WINDOW_MS of acknowledgements and is told only once
 * it is stable: at least MIN_SAMPLES acknowledgements, and the finish time this one predicts agrees
 * with the one the previous predicted within MARGIN of the time left (or SLACK_MS). Otherwise none.
 *
 * Plain logic, no browser API: the upload code (tus-upload.client.ts) feeds it, the tests drive it.
 */

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
