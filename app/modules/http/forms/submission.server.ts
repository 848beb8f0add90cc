import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/node";
import { echoedPayload, fieldNamesOf, formShapeProblem } from "./form-shape";
import { badRequest, readFormData } from "../answers/request.server";
import { logger } from "~/modules/log/logger.server";

/**
 * The parsing layer of every form (ADR 053): the body read once (a malformed one is the product's
 * 400 page), parsed with the form's zod schema by conform, and one reply shape — conform's
 * `submission.reply()` (what was typed, and the messages by field as translation keys) with status
 * 400 on refusal. Actions read fields only from the parsed value, never from the raw form.
 */
export type FormReply = SubmissionResult<string[]>;

type Schema = Parameters<typeof parseWithZod>[1]["schema"];
type Output<S> = S extends { _zod: { output: infer O } } ? O : never;

export async function readSubmission<S extends Schema>(request: Request, context: AppLoadContext, schema: S): Promise<Submission<Output<S>, string[]>> {
  return parseSubmission(request, context, await readFormData(request, context), schema);
}

/** The names each schema reads, worked out once per schema. */
const namesBySchema = new WeakMap<object, Set<string> | null>();

function knownNames(schema: Schema): Set<string> | null {
  if (!namesBySchema.has(schema)) namesBySchema.set(schema, fieldNamesOf(schema));
  return namesBySchema.get(schema)!;
}

/**
 * A form already read (a multipart body whose files were streamed to storage as it was read), parsed
 * with its schema. Its shape is checked first (form-shape.ts, ADR 056): a form that would make
 * conform build structure the schema does not have — a huge index, thousands of values, conform's
 * own control fields — is the sender's mistake, a 400 before anything is built. A refusal echoes
 * only the schema's own fields.
 */
export async function parseSubmission<S extends Schema>(request: Request, context: AppLoadContext, form: FormData, schema: S): Promise<Submission<Output<S>, string[]>> {
  const known = knownNames(schema);
  const problem = formShapeProblem(form.keys(), known);
  if (problem) {
    logger.info({ problem }, "form refused: not the form's shape");
    throw await badRequest(request, context);
  }
  let submission: Submission<Output<S>, string[]>;
  try {
    submission = parseWithZod(form, { schema }) as Submission<Output<S>, string[]>;
  } catch {
    throw await badRequest(request, context);
  }
  const reply = submission.reply;
  return Object.assign(submission, {
    reply: (options?: Parameters<typeof reply>[0]) => {
      const result = reply(options);
      return result.initialValue ? { ...result, initialValue: echoedPayload(result.initialValue, known) } : result;
    },
  });
}

/** The intent a form says it is, whatever else it got wrong. */
export function submittedIntent(submission: Submission<unknown>): unknown {
  return submission.payload.intent;
}

/** A text a form sent, whatever else it got wrong: where to go back to (checked by `redirectTarget`). */
export function submittedText(submission: Submission<unknown>, name: string): string | undefined {
  const value = submission.payload[name];
  return typeof value === "string" ? value : undefined;
}

/** A form's value when it parsed and is the intent named; else null. */
export function intentValue<V extends { intent: string }, I extends V["intent"]>(submission: Submission<V, string[]>, intent: I): Extract<V, { intent: I }> | null {
  return submission.status === "success" && submission.value.intent === intent ? (submission.value as Extract<V, { intent: I }>) : null;
}

/**
 * A refused form: what was typed, and why, with status 400; `extra` says more in place (ADR 026);
 * `fieldErrors` are what the server found beyond the schema (an address not on file).
 */
export function refused<E extends object = object>(submission: Submission<unknown, string[]>, extra?: E, status = 400, fieldErrors?: Record<string, string[]>, headers?: HeadersInit) {
  return data<FormReply & Partial<E>>({ ...submission.reply(fieldErrors ? { fieldErrors } : undefined), ...(extra as E) }, { status, headers });
}
