import * as z from "zod/mini";
import { emailField } from "~/modules/validation/fields";
import { BAD_CHARACTERS, hasForbiddenCharacters, TOO_LONG } from "~/modules/validation/text";

/**
 * The wizard's forms on zod (ADR 053; customer side §2, §5), written with `zod/mini` like every
 * area's. Messages are translation keys, the spec's texts unchanged.
 *
 * The action reads every post with `wizardFormSchema`, which refuses nothing: what a step may move
 * on with depends on the order as it stands (its patients, their files and skips, the uploads on
 * their way), and "back" and the skips save what can be saved of a half-filled step. The step's
 * own checks are the schemas below, run by `checkStep` on the parsed values and by the summary on
 * what is stored.
 */

/** Longest texts a field keeps (an e-mail address is at most 254 characters, RFC 5321). */
export const FIELD_MAX = {
  email: 254,
  phone: 50,
  full_name: 200,
  address: 500,
  delivery_comment: 1000,
  patient_name: 200,
  additional_comments: 2000,
} as const;
export type LimitedField = keyof typeof FIELD_MAX;

/**
 * A field as the wizard has always read it: its first value when sent more than once, `undefined`
 * when absent or no text (a file under a text's name).
 */
const first = z.pipe(
  z.optional(z.unknown()),
  z.transform((value): string | undefined => {
    const item = Array.isArray(value) ? value[0] : value;
    return typeof item === "string" ? item : undefined;
  }),
);

/** A typed text, trimmed, or `undefined`. */
const typed = z.pipe(first, z.transform((value) => value?.trim()));

/** One of a fixed list, or null for anything else (the stored choice then stays). */
const choice = <T extends string>(values: readonly T[]) => z.pipe(first, z.transform((value): T | null => ((values as readonly string[]).includes(value ?? "") ? (value as T) : null)));

/** A field sent any number of times, as a list of its texts. */
const texts = z.pipe(
  z.optional(z.unknown()),
  z.transform((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === "string")),
);

export const MATRIX_TYPES = ["soft", "hard"] as const;
export const MATERIAL_TYPES = ["single_layer", "three_layer"] as const;
export const CUT_TYPES = ["wavy", "straight"] as const;

/** Every field a wizard post may carry. */
export const wizardFormSchema = z.object({
  /** The button pressed; "" when none ("next" starts an order, anything unknown keeps the step). */
  intent: z.pipe(first, z.transform((value) => value ?? "")),
  /** The patient chosen in the selector ("select_patient"). */
  patientId: first,
  /** Compared and stored lower-cased (validation/email.ts). */
  email: z.pipe(typed, z.transform((value) => value?.toLowerCase())),
  phone: typed,
  full_name: typed,
  address: typed,
  delivery_comment: typed,
  consent: z.pipe(first, z.transform((value) => value === "on")),
  patient_name: typed,
  matrix_type: choice(MATRIX_TYPES),
  material_type: choice(MATERIAL_TYPES),
  cut_type: choice(CUT_TYPES),
  additional_comments: typed,
  /** The tus uploads the page says are still going up for the step's files (ADR 054): one or many. */
  in_flight: texts,
  /** Each listed file's declared jaw and step (ADR 058): three lists in the same order, one entry per file. */
  file_path: texts,
  file_jaw: texts,
  file_step: texts,
  /** "yes" once the doctor said to skip a step that holds files (asked once, ADR 057). */
  confirm_skip: first,
});
export type WizardForm = z.output<typeof wizardFormSchema>;

/** The jaw and step declarations a step's form carries (ADR 058); an entry whose jaw or step cannot be read declares none. */
export function fileDeclarations(form: Pick<WizardForm, "file_path" | "file_jaw" | "file_step">): Array<{ storagePath: string; jaw: "upper" | "lower" | null; stepNumber: number | null }> {
  return form.file_path.slice(0, 300).map((storagePath, index) => {
    const jaw = form.file_jaw[index];
    const step = (form.file_step[index] ?? "").trim();
    return {
      storagePath,
      jaw: jaw === "upper" || jaw === "lower" ? jaw : null,
      stepNumber: /^\d{1,3}$/.test(step) && Number(step) > 0 ? Number(step) : null,
    };
  });
}

/**
 * The step a post names (ADR 046), read from the form as sent: a step field that is empty or no
 * number names no step the order can be on (NaN), and so does one that is no text; a form without
 * it (the patient selector, pay) names none (null). Of a field sent twice, the first.
 */
export function postedStep(payload: Record<string, unknown>): number | null {
  if (!("step" in payload) || payload.step === undefined) return null;
  const first = Array.isArray(payload.step) ? payload.step[0] : payload.step;
  return typeof first === "string" ? Number(first) : Number.NaN;
}

/** A required text of the wizard: trimmed, then its own "required", the forbidden characters and the limit. */
function requiredText(max: number, required: string) {
  return z.string({ error: required }).check(
    z.trim(),
    z.minLength(1, { error: required, abort: true }),
    z.refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS, abort: true }),
    z.maxLength(max, { error: TOO_LONG, abort: true }),
  );
}

/** A text that may be empty, refused only for forbidden characters or length. */
function optionalLimited(max: number) {
  return z.optional(z.string().check(z.trim(), z.refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS, abort: true }), z.maxLength(max, { error: TOO_LONG, abort: true })));
}

/** Step 2: the e-mail (the one rule; every refusal of it is "invalid") and the phone. */
export const contactsSchema = z.object({
  email: emailField({ required: "wizard.errors.emailRequired", invalid: "wizard.errors.emailInvalid", badCharacters: "wizard.errors.emailInvalid" }),
  phone: requiredText(FIELD_MAX.phone, "wizard.errors.phoneRequired"),
});

/** Step 3: the address and the recipient; the consent is the forward rule's (forward.ts). */
export const deliverySchema = z.object({
  address: requiredText(FIELD_MAX.address, "wizard.errors.addressRequired"),
  full_name: requiredText(FIELD_MAX.full_name, "wizard.errors.fullNameRequired"),
  delivery_comment: optionalLimited(FIELD_MAX.delivery_comment),
});

/** Step 4's "add patient": the name. */
export const patientNameSchema = z.object({ patient_name: requiredText(FIELD_MAX.patient_name, "wizard.errors.patientNameRequired") });

/** Step 9's comment. */
export const commentsSchema = z.object({ additional_comments: optionalLimited(FIELD_MAX.additional_comments) });
