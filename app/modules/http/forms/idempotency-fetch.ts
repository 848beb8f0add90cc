import { RESEND_KEY_HEADER } from "./idempotency";

/**
 * One mechanism for every enhanced form, fetcher and navigation (ADR 046): Remix asks the server
 * through `fetch` for `*.data`, and this wraps `fetch` for those requests only. When one cannot reach
 * the app — the network is down, the connection is reset, no answer comes, or a proxy answers with
 * its own 502/503/504 page instead of the app's — the request is not failed: the page stays as it is,
 * with every typed value, the "no connection" notice says so, and the same request is sent again when
 * the browser is back online, every second meanwhile, or at once from the notice's button. A post
 * carries one key over all its resends, so a post the server did act on before the connection broke
 * gets its first answer back instead of acting twice (`idempotency.server.ts`).
 */

/** A request that got no answer headers in this long is given up and sent again. */
const ANSWER_TIMEOUT_MS = 15_000;
/** Between resends while the browser believes it is online (a proxy or the server away). */
const RESEND_EVERY_MS = 1_000;
/** A longer Retry-After from the server is not waited for in full. */
const MAX_RETRY_AFTER_MS = 5_000;

export interface ConnectionState {
  /** Requests waiting for the connection. */
  waiting: number;
}

let state: ConnectionState = { waiting: 0 };
const listeners = new Set<() => void>();
const wakers = new Set<() => void>();

function set(next: ConnectionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const connectionState = () => state;

export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sends every waiting request again now (the notice's button). */
export function resendNow() {
  for (const wake of [...wakers]) wake();
}

/** The app's own requests: Remix's data requests on this origin. */
function isAppData(url: URL): boolean {
  return url.origin === window.location.origin && url.pathname.endsWith(".data");
}

/** An answer that is not the app's: a proxy's or load balancer's error page, or the server asking for a moment. */
function isUnreachable(response: Response): boolean {
  return !response.headers.has("X-Remix-Response") && [502, 503, 504].includes(response.status);
}

/** Resolves when it is time to send again: back online, the button, or the interval; rejects when the request is abandoned. */
function untilResend(signal: AbortSignal | null | undefined, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      wakers.delete(done);
      window.removeEventListener("online", done);
      signal?.removeEventListener("abort", abandoned);
      resolve();
    };
    const abandoned = () => {
      done();
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    if (signal?.aborted) return abandoned();
    wakers.add(done);
    window.addEventListener("online", done);
    signal?.addEventListener("abort", abandoned);
    // Offline, the browser says when it is back; online, something between us and the app failed.
    if (navigator.onLine) timer = setTimeout(done, delayMs);
  });
}

/** One attempt, given up when no answer comes in time or the page abandons it. */
async function attempt(send: typeof fetch, input: RequestInfo | URL, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const outer = init.signal;
  const abandon = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", abandon);
  const timer = setTimeout(() => controller.abort(new DOMException("No answer", "TimeoutError")), ANSWER_TIMEOUT_MS);
  try {
    return await send(input, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", abandon);
  }
}

function retryAfterMs(response: Response | null): number {
  const seconds = Number(response?.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : RESEND_EVERY_MS;
}

/** 128 random bits in hex (`crypto.randomUUID` exists only on secure origins). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Installs the mechanism once, before the app hydrates. */
export function installResend() {
  const send = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (input instanceof Request) return send(input, init);
    const url = new URL(String(input), window.location.href);
    if (!isAppData(url)) return send(input, init);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    if (method !== "GET" && method !== "HEAD") headers.set(RESEND_KEY_HEADER, newKey());
    const request = { ...init, headers };
    let waiting = false;
    try {
      for (;;) {
        let response: Response | null = null;
        try {
          response = await attempt(send, input, request);
          if (!isUnreachable(response)) return response;
        } catch (error) {
          if (init.signal?.aborted) throw error;
        }
        if (!waiting) {
          waiting = true;
          set({ waiting: state.waiting + 1 });
        }
        await untilResend(init.signal, retryAfterMs(response));
      }
    } finally {
      if (waiting) set({ waiting: state.waiting - 1 });
    }
  };
}
