import { AsyncLocalStorage } from "node:async_hooks";
import { inspect } from "node:util";
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

const isFields = (value: unknown): boolean => typeof value === "object" && value !== null && !(value instanceof Error) && !Array.isArray(value);

function level(): string {
  const wanted = process.env.LOG_LEVEL;
  return wanted && Object.hasOwn(pino.levels.values, wanted) ? wanted : "info";
}

// Readable lines for a person (development, or a terminal); JSON for machines (production, pipes, tests).
const pretty = process.env.LOG_FORMAT === "pretty" || (process.env.LOG_FORMAT !== "json" && (process.env.NODE_ENV === "development" || Boolean(process.stdout.isTTY)));

/** Each level takes pino's (fields, message) or the console's ("what failed:", error, …). */
export type Logger = Record<"fatal" | "error" | "warn" | "info" | "debug" | "trace", (...parts: unknown[]) => void>;

const pinoLogger = pino({
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
    // Besides pino's own (fields, message), the calls read like the console's: ("what failed:", error, detail).
    // An error goes under `err` with its stack; the other parts become the message, e-mails shortened.
    logMethod(args, method) {
      const parts: unknown[] = [...args];
      const fields = isFields(parts[0]) ? (parts.shift() as Record<string, unknown>) : {};
      const error = parts.find((part) => part instanceof Error) as Error | undefined;
      const text = parts
        .filter((part) => part !== error)
        .map((part) => (typeof part === "string" ? part : inspect(part, { depth: 3, breakLength: Infinity })))
        .join(" ")
        .replace(/:$/, "");
      return method.call(this, { ...fields, ...(error ? { err: error } : {}) }, maskEmails(text || error?.message || ""));
    },
  },
  transport: pretty ? { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" } } : undefined,
});

// Bound, so a level can be handed over as a plain function (`log = logger.info`).
export const logger: Logger = Object.fromEntries(
  (["fatal", "error", "warn", "info", "debug", "trace"] as const).map((level) => [level, pinoLogger[level].bind(pinoLogger)]),
) as unknown as Logger;
