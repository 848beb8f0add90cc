import http from "node:http";

/**
 * A fixed offered load, as visitors make it: requests start at an even pace whatever the server's
 * answers (an open loop), and each one's latency counts from when it was due, so a server that falls
 * behind pays for the wait it caused (no coordinated omission).
 *
 * autocannon's `overallRate` does not do this: each connection may send its share of a second's
 * requests as soon as the second starts, so "half the capacity" arrived as a burst at full capacity
 * every second, then nothing (its p99 was the burst's queue, 210–400 ms on pages that answer in 5).
 */
export interface OpenLoopResult {
  /** Requests answered per second over the run. */
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Requests still unanswered when the run ended (counted as errors too). */
  late: number;
}

export async function openLoop(url: string, { rate, seconds, headers = {}, maxSockets = 200 }: { rate: number; seconds: number; headers?: Record<string, string>; maxSockets?: number }): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let inFlight = 0;
  const started = performance.now();
  const total = Math.round(rate * seconds);
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      inFlight++;
      const done = (ok: boolean, status = 0) => {
        inFlight--;
        if (!ok) errors++;
        else if (status < 200 || status >= 300) non2xx++;
        latencies.push(performance.now() - due);
        resolve();
      };
      const request = http.get(url, { agent, headers }, (response) => {
        response.on("data", () => {});
        response.on("end", () => done(true, response.statusCode ?? 0));
        response.on("error", () => done(false));
      });
      request.on("error", () => done(false));
    });
  const pending: Promise<void>[] = [];
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      // Every request due by now goes out, each remembering when it was due.
      while (sent < total && (sent * 1000) / rate <= elapsed) {
        pending.push(send(started + (sent * 1000) / rate));
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // The last ones get up to ten seconds to answer.
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
  await Promise.race([Promise.all(pending), deadline]);
  const late = inFlight;
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0);
  return { rps: latencies.length / elapsedSeconds, requests: latencies.length, p50: at(0.5), p99: at(0.99), non2xx, errors: errors + late, late };
}
