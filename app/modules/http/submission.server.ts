import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/node";
import { badRequest, readFormData } from "./request.server";

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

/**
 * A form already read (a multipart body whose files were streamed to storage as it was read), parsed
 * with its schema. conform reserves two field names for its own controls (`__intent__`, `__state__`)
 * and throws on a value of them it cannot read: a forged one is the sender's mistake, a 400.
 */
export async function parseSubmission<S extends Schema>(request: Request, context: AppLoadContext, form: FormData, schema: S): Promise<Submission<Output<S>, string[]>> {
  try {
    return parseWithZod(form, { schema }) as Submission<Output<S>, string[]>;
  } catch {
    throw await badRequest(request, context);
  }
}

/** The intent a form says it is, whatever else it got wrong. */
export function submittedIntent(submission: Submission<unknown>): unknown {
  return submission.payload.intent;
}

/** A text a form sent, whatever else it got wrong: where to go back to (checked by `safeRedirect`). */
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
export function refused<E extends object = object>(submission: Submission<unknown, string[]>, extra?: E, status = 400, fieldErrors?: Record<string, string[]>) {
  return data<FormReply & Partial<E>>({ ...submission.reply(fieldErrors ? { fieldErrors } : undefined), ...(extra as E) }, { status });
}
