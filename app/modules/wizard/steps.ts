/**
 * The wizard's steps, one entry each (customer side §2; ADR 060): the only place that knows a step
 * by its number. Everything that asks about a step — the server's save and check (step-fields.server),
 * the browser's check of typed fields (validation.ts), the forward button (forward.ts), where a button
 * leads (navigation.ts), the page (routes/order.tsx) — reads its entry here. Without imports of
 * server code or schemas, so the page loads it as it is.
 */

/** A patient's skip flags, one per upload step. */
export interface Skips {
  skipMatrix: boolean;
  skipAligners: boolean;
  skipRetainers: boolean;
}
export type SkipFlag = keyof Skips;

export type UploadType = "matrix" | "aligners" | "retainer";

/** What a step is: the page draws it and the server checks it by its kind. */
export type StepKind = "info" | "fields" | "patient" | "upload" | "choice" | "summary";

/** The component that draws a step's body (routes/order.tsx maps each to one). */
export type StepView = "info" | "contacts" | "delivery" | "patient" | "upload" | "matrixType" | "material" | "cut" | "summary";

/** The typed fields a step checks before "next", by the schema of forms.ts that checks them (validation.ts). */
export type TypedFields = "contacts" | "delivery" | "comments";

/** A choice a step requires before "next" (a radio group), stored on the patient. */
export interface StepChoice {
  field: "matrix_type" | "material_type" | "cut_type";
  /** The message when none is chosen. */
  required: string;
  /** Asked only on markets with this trait; elsewhere the value is fixed. */
  onlyWhen?: { trait: "softMatrix"; otherwise: string };
}

export interface StepDefinition {
  number: number;
  /** The step's name in code: what other modules call it by. */
  id: StepId;
  /** The title's translation key. */
  title: string;
  kind: StepKind;
  view: StepView;
  /** The typed texts the step's form carries, saved on "next", "back" and the skips (nothing typed is lost), and where. */
  saves?: { to: "order" | "patient"; fields: ReadonlyArray<"email" | "phone" | "full_name" | "address" | "delivery_comment" | "additional_comments"> };
  /** The schema that checks the typed fields before "next". */
  checks?: TypedFields;
  /** Step 3 on markets with domestic notices: the consent must be ticked. */
  asksConsent?: boolean;
  choice?: StepChoice;
  /** Upload steps: the files they collect, the message when there are none, and the skip button. */
  upload?: { type: UploadType; filesRequired: string; skip: UploadSkip };
  /** A step passed over in both directions (only its navigation drawn) when the patient skipped this upload. */
  passedOverWhen?: SkipFlag;
  /** The upload skip that makes the spec count this step as skipped (progress, summaries). */
  countsSkippedWhen?: SkipFlag;
  /** The step works on the order's current patient (the patient selector above it, "back to patient" below). */
  perPatient?: boolean;
  /** "← Назад" is drawn. */
  back: boolean;
  /** A doctor not signed in with the order's address is offered here to sign in for its personal conditions. */
  offersPersonalPrice?: boolean;
}

/** An upload step's "Пропустить": what it posts, the flag it sets, where it leads and what it says. */
export interface UploadSkip {
  intent: SkipIntent;
  flag: SkipFlag;
  to: StepId;
  toast: string;
  /**
   * Disabled while a file of this step (this patient) is going up, with JavaScript; enabled again once
   * it is stored, cancelled or failed (customer side §2 says so of step 10 only). The server asks
   * before any skip with files on their way or stored, whatever the page (ADR 057).
   */
  heldWhileUploading?: true;
}

export type SkipIntent = "skip_matrix" | "skip_aligners" | "skip_retainers";
export type StepId = "info" | "contacts" | "delivery" | "patient" | "matrix" | "matrixType" | "aligners" | "material" | "cut" | "retainers" | "summary";

export const STEPS: readonly StepDefinition[] = [
  { number: 1, id: "info", title: "wizard.titles.info", kind: "info", view: "info", back: false },
  {
    number: 2,
    id: "contacts",
    title: "wizard.titles.contacts",
    kind: "fields",
    view: "contacts",
    saves: { to: "order", fields: ["email", "phone"] },
    checks: "contacts",
    back: true,
    offersPersonalPrice: true,
  },
  {
    number: 3,
    id: "delivery",
    title: "wizard.titles.delivery",
    kind: "fields",
    view: "delivery",
    saves: { to: "order", fields: ["full_name", "address", "delivery_comment"] },
    checks: "delivery",
    asksConsent: true,
    back: true,
  },
  { number: 4, id: "patient", title: "wizard.titles.patient", kind: "patient", view: "patient", back: true },
  {
    number: 5,
    id: "matrix",
    title: "wizard.titles.matrixUpload",
    kind: "upload",
    view: "upload",
    upload: { type: "matrix", filesRequired: "wizard.errors.matrixFilesRequired", skip: { intent: "skip_matrix", flag: "skipMatrix", to: "aligners", toast: "wizard.toasts.skippedMatrix" } },
    countsSkippedWhen: "skipMatrix",
    perPatient: true,
    // The first step of a patient: its way back is "back to patient" (customer side §2).
    back: false,
  },
  {
    number: 6,
    id: "matrixType",
    title: "wizard.titles.matrixType",
    kind: "choice",
    view: "matrixType",
    choice: { field: "matrix_type", required: "wizard.errors.matrixTypeRequired", onlyWhen: { trait: "softMatrix", otherwise: "hard" } },
    passedOverWhen: "skipMatrix",
    countsSkippedWhen: "skipMatrix",
    perPatient: true,
    back: true,
  },
  {
    number: 7,
    id: "aligners",
    title: "wizard.titles.alignerUpload",
    kind: "upload",
    view: "upload",
    upload: { type: "aligners", filesRequired: "wizard.errors.alignerFilesRequired", skip: { intent: "skip_aligners", flag: "skipAligners", to: "retainers", toast: "wizard.toasts.skippedAligners" } },
    countsSkippedWhen: "skipAligners",
    perPatient: true,
    back: true,
  },
  {
    number: 8,
    id: "material",
    title: "wizard.titles.material",
    kind: "choice",
    view: "material",
    choice: { field: "material_type", required: "wizard.errors.materialRequired" },
    passedOverWhen: "skipAligners",
    countsSkippedWhen: "skipAligners",
    perPatient: true,
    back: true,
  },
  {
    number: 9,
    id: "cut",
    title: "wizard.titles.cut",
    kind: "choice",
    view: "cut",
    choice: { field: "cut_type", required: "wizard.errors.cutRequired" },
    saves: { to: "patient", fields: ["additional_comments"] },
    checks: "comments",
    passedOverWhen: "skipAligners",
    countsSkippedWhen: "skipAligners",
    perPatient: true,
    back: true,
  },
  {
    number: 10,
    id: "retainers",
    title: "wizard.titles.retainerUpload",
    kind: "upload",
    view: "upload",
    upload: { type: "retainer", filesRequired: "wizard.errors.retainerFilesRequired", skip: { intent: "skip_retainers", flag: "skipRetainers", to: "summary", toast: "wizard.toasts.skippedRetainers", heldWhileUploading: true } },
    countsSkippedWhen: "skipRetainers",
    perPatient: true,
    back: true,
  },
  { number: 11, id: "summary", title: "wizard.titles.summary", kind: "summary", view: "summary", back: true, offersPersonalPrice: true },
];

export const FIRST_STEP = STEPS[0]!.number;
export const LAST_STEP = STEPS[STEPS.length - 1]!.number;

const BY_ID = Object.fromEntries(STEPS.map((step) => [step.id, step])) as Record<StepId, StepDefinition>;

/** A step by its name. */
export const stepNamed = (id: StepId): StepDefinition => BY_ID[id];

/** A step's number by its name (for the few places that store or compare one). */
export const stepNumber = (id: StepId): number => BY_ID[id].number;

/** A step's number as stored or sent, or the first step for anything else. */
export function clampStep(value: unknown): number {
  const step = typeof value === "number" ? value : Number.parseInt(String(value ?? ""), 10);
  return Number.isInteger(step) && step >= FIRST_STEP && step <= LAST_STEP ? step : FIRST_STEP;
}

/** The entry of a step number (clamped). */
export const stepAt = (step: number): StepDefinition => STEPS[clampStep(step) - FIRST_STEP]!;

/** The upload steps, in order, with what each collects. */
export const UPLOAD_STEPS: ReadonlyArray<StepDefinition & { upload: NonNullable<StepDefinition["upload"]> }> = STEPS.filter((step): step is StepDefinition & { upload: NonNullable<StepDefinition["upload"]> } => step.upload !== undefined);

/** The file type an upload step collects, or undefined for any other step. */
export const uploadTypeAt = (step: number): UploadType | undefined => stepAt(step).upload?.type;

/** The upload step that collects a file type. */
export const uploadStepOf = (type: UploadType) => UPLOAD_STEPS.find((step) => step.upload.type === type)!;
