import * as z from "zod/mini";
import { FILE_TYPES } from "~db/schema";
import { STEP_MAX } from "~/modules/orders/declaration";

/**
 * Staff's correction of one file's jaw and step on the order's files page (ADR 058). The form answers
 * by a toast on the files page, so the schema stays on the server and a refusal is the toast of its
 * first message, in the order the fields are read: the jaw, the step, then the file itself.
 */
export const FILE_ERRORS = {
  jaw: "bo.orders.files.errors.jaw",
  step: "bo.orders.files.errors.step",
  stepRequired: "bo.orders.files.errors.stepRequired",
  notFound: "bo.orders.files.errors.notFound",
} as const;

export const fileCorrectionSchema = z.object({
  patientId: z.string({ error: FILE_ERRORS.notFound }),
  type: z.enum(FILE_TYPES, { error: FILE_ERRORS.notFound }),
  path: z.string({ error: FILE_ERRORS.notFound }),
  jaw: z.enum(["upper", "lower"], { error: FILE_ERRORS.jaw }),
  /** Empty: no step (a matrix or retainer); otherwise a whole number from 1 to 999, as the wizard's field takes it. */
  step: z.pipe(
    z.optional(
      z.string({ error: FILE_ERRORS.step }).check(
        z.trim(),
        z.refine((value) => value === "" || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= STEP_MAX), { error: FILE_ERRORS.step }),
      ),
    ),
    z.transform((value) => (value ? Number(value) : null)),
  ),
});

/** The first reason a correction was refused, in the order the fields are read. */
export const fileCorrectionRefusal = (error: Record<string, string[] | null> | null | undefined): string =>
  error?.jaw?.[0] ?? error?.step?.[0] ?? error?.patientId?.[0] ?? error?.type?.[0] ?? error?.path?.[0] ?? FILE_ERRORS.notFound;
