import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

/**
 * The one logger of the server, the worker and the scripts (ADR 031): JSON lines in production and
 * tests, readable lines in development, `LOG_LEVEL` to choose how much. Every line written while a
 * request is served carries that request's id, so support can find a clinic's failed request from
 * the id on its error page.
 *
 * What must never reach a log: passwords, tokens, sign-in codes, full e-mail addresses, patient
 * names. Fields with those names are hidden wherever they appear, and e-mail addresses inside
 * messages and error texts are shortened to their first letter and domain.
 */

/** What the serving of one request has learned about itself, for its log line. */
export interface RequestFacts {
  requestId: string;
  routeId?: string;
  /** The deepest route whose loader or action ran: layout loaders run beside their children. */
  routeDepth?: number;
  role?: "client" | "staff" | "packer";
}

// One store per process: server.mts loads this module from source and the Remix build carries its own
// copy, and both must see the same request.
const STORE = Symbol.for("aligner.requestFacts");
const requests: AsyncLocalStorage<RequestFacts> = ((globalThis as Record<symbol, unknown>)[STORE] ??= new AsyncLocalStorage<RequestFacts>()) as AsyncLocalStorage<RequestFacts>;

export function withRequestFacts<T>(facts: RequestFacts, run: () => T): T {
  return requests.run(facts, run);
}

export function requestFacts(): RequestFacts | undefined {
  return requests.getStore();
}

/** Notes who is asking (the session or gate pass that was accepted), for the request's log line. */
export function noteRole(role: NonNullable<RequestFacts["role"]>) {
  const facts = requests.getStore();
  if (facts) facts.role = role;
}

const HIDDEN = ["password", "token", "secret", "email", "patientName", "patient_name", "fullName", "cookie", "authorization"];

const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** "doctor@clinic.ru" → "d…@clinic.ru": enough to tell clinics apart, not enough to write to. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, "$1…@$2");
}

function scrubError(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: maskEmails(serialized.message), stack: serialized.stack ? maskEmails(serialized.stack) : undefined };
}

function level(): string {
  const wanted = process.env.LOG_LEVEL;
  return wanted && Object.hasOwn(pino.levels.values, wanted) ? wanted : "info";
}

const pretty = process.env.NODE_ENV === "development" && process.env.LOG_FORMAT !== "json";

export const logger = pino({
  level: level(),
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  // A sign-in code is a top-level `code`; nested `code`s are error codes (ECONNREFUSED, 23505) worth keeping.
  redact: { paths: ["code", ...HIDDEN, ...HIDDEN.map((field) => `*.${field}`)], censor: "[hidden]" },
  serializers: { err: scrubError, error: scrubError },
  mixin: () => {
    const facts = requests.getStore();
    return facts ? { requestId: facts.requestId } : {};
  },
  hooks: {
    logMethod(args, method) {
      const [first, ...rest] = args;
      // logger.error(error) and logger.error(error, "text"): the error under `err`, with its stack.
      if (first instanceof Error) return method.apply(this, [{ err: first }, ...rest.map((part) => (typeof part === "string" ? maskEmails(part) : part))] as never);
      return method.apply(this, [first, ...rest.map((part) => (typeof part === "string" ? maskEmails(part) : part))] as never);
    },
  },
  transport: pretty ? { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" } } : undefined,
});
