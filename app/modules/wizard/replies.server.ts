import { data } from "@remix-run/node";
import type { FileType } from "~db/schema";
import type { Failure } from "~/modules/http/forms/failure";
import type { FormReply } from "~/modules/http/forms/submission.server";
import type { Toast } from "~/modules/http/answers/toast.server";
import { fileListSaveFailure } from "~/modules/uploads/save-failure";
import type { UploadResult } from "~/modules/uploads/upload-handler.server";
import type { FieldErrors } from "./validation";

/** The answers of the wizard's action that are not a step's own work: refusals and toasts. */

export interface ActionFailure {
  errors: FieldErrors;
  formError?: string;
  values?: Record<string, string>;
  /** A save the server could not make (ADR 026), shown in place. */
  saveFailure?: Failure;
}

/** "Ошибка сохранения": the retainer's wording, or the data's name for the other lists (customer side §8). */
export function fileListFailureToast(type: FileType): Toast {
  return { type: "error", ...fileListSaveFailure(type) };
}

/** A handed-off order's composition is frozen: said when a change to it is refused. */
export const frozenToast: Toast = {
  type: "error",
  title: "wizard.errors.frozenTitle",
  description: "wizard.errors.frozen",
};

/**
 * A refusal in the one reply shape of every form (conform's `SubmissionResult`, ADR 053): what was
 * typed as `initialValue`, each field's message under its name, the form's own under "", and a save
 * that failed in place beside them. Built from the failure rather than by `submission.reply()`: the
 * wizard's refusals come from the order as it stands (its patients, files, the save), not from the
 * schema, which refuses nothing (forms.ts).
 */
export type WizardReply = FormReply & { failure?: Failure };

export function wizardReply({ errors, formError, values, saveFailure }: ActionFailure): WizardReply {
  const error: Record<string, string[]> = Object.fromEntries(Object.entries(errors).map(([name, key]) => [name, [key]]));
  if (formError) error[""] = [formError];
  return { status: "error", initialValue: values ?? null, error, ...(saveFailure ? { failure: saveFailure } : {}) };
}

export const fail = (failure: ActionFailure, status = 400) => data(wizardReply(failure), { status });

/** The form's text values as sent (a parsed submission's payload), given back so a refused form shows what was typed; of a field sent twice, the last. */
export const typedValues = (payload: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(payload).flatMap(([name, value]): Array<[string, string]> => {
      const text = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string").at(-1);
      return text === undefined ? [] : [[name, text]];
    }),
  );

export function toastFromUploads(results: UploadResult[]): Toast | null {
  if (results.length === 0) return null;
  const stored = results.filter((result) => result.ok).length;
  const count = (error: string) => results.filter((result) => !result.ok && result.error === error).length;
  const lines: NonNullable<Toast["lines"]> = [];
  const format = count("format");
  const size = count("size");
  if (format) lines.push({ key: "wizard.upload.formatError", values: { count: format } });
  if (size) lines.push({ key: "wizard.upload.sizeError", values: { count: size } });
  for (const result of results) {
    if (!result.ok && result.error !== "format" && result.error !== "size") {
      lines.push({ key: "wizard.upload.fileFailed", values: { name: result.originalName, causeKey: `wizard.upload.causes.${result.error}` } });
    }
  }
  // Wrong format or size: their own title, as the page says it with JavaScript (customer side §8).
  if (format || size) {
    const [first, ...others] = lines;
    return {
      type: "error",
      title: format ? "uploads.errors.formatTitle" : "uploads.errors.sizeTitle",
      description: first!.key,
      values: first!.values,
      lines: [
        ...others,
        ...(stored > 0
          ? [
              {
                key: "wizard.upload.successText",
                values: { done: stored, total: results.length },
              },
            ]
          : []),
      ],
    };
  }
  if (stored === 0)
    return {
      type: "error",
      title: "wizard.upload.noValidTitle",
      description: "wizard.upload.noValidText",
      lines,
    };
  return {
    type: lines.length ? "warning" : "success",
    title: "wizard.upload.successTitle",
    description: "wizard.upload.successText",
    values: { done: stored, total: results.length },
    lines,
  };
}
