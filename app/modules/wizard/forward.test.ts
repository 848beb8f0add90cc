import { describe, expect, it, vi } from "vitest";
import type { Order, Patient } from "~db/schema";
import { type ForwardFacts, filesProblem, forwardBlocked, forwardHeldBy } from "./forward";
import { NO_SKIPS, type Skips } from "./navigation";

// The upload store, as the step check asks it whether the files the form names are on their way.
const onTheWay = vi.hoisted(() => ({ value: false }));
vi.mock("~/modules/uploads/tus.server", () => ({ uploadsOnTheWay: async () => onTheWay.value }));

const { checkStep } = await import("./step-fields.server");
const { wizardFormSchema } = await import("./forms");

const file = { storagePath: "orders/x/a.stl", originalName: "a.stl", url: "/f/a.stl" };
const COLUMN = { 5: "matrix_files_info", 7: "aligner_files_info", 10: "retainer_files_info" } as const;

function patientWith(step: 5 | 7 | 10, stored: number, skips: Skips): Patient {
  return {
    id: "p1",
    matrix_files_info: [],
    aligner_files_info: [],
    retainer_files_info: [],
    [COLUMN[step]]: Array.from({ length: stored }, () => file),
    skip_matrix: skips.skipMatrix,
    skip_aligners: skips.skipAligners,
    skip_retainers: skips.skipRetainers,
    matrix_type: "hard",
    material_type: "single_layer",
    cut_type: "wavy",
  } as unknown as Patient;
}

const order = { id: "o1" } as Order;
const pageFacts = (files: ForwardFacts["files"]): ForwardFacts => ({ noPatient: false, following: true, patientCount: 1, patientTyped: false, consentRequired: false, consent: false, files });

describe("an upload step needs its files unless skipped: one rule for the server and the button", () => {
  const cases: Array<{ step: 5 | 7 | 10; stored: number; skipped: boolean; skips: Skips; inFlight: boolean }> = [];
  for (const step of [5, 7, 10] as const)
    for (const stored of [0, 2])
      for (const skipped of [false, true])
        for (const inFlight of [false, true]) {
          const skips = { ...NO_SKIPS, ...(skipped ? { [step === 5 ? "skipMatrix" : step === 7 ? "skipAligners" : "skipRetainers"]: true } : {}) };
          cases.push({ step, stored, skipped, skips, inFlight });
        }

  it.each(cases)("step $step: $stored stored, skipped $skipped, in flight $inFlight", async ({ step, stored, skips, inFlight }) => {
    onTheWay.value = inFlight;
    const form = wizardFormSchema.parse(inFlight ? { in_flight: "upload-1" } : {});
    const refused = await checkStep({ step, order, patient: patientWith(step, stored, skips), patientCount: 1, form, typed: {}, market: "domestic" });
    const blocked = forwardBlocked(step, pageFacts({ stored, skips, onTheWay: inFlight }));
    expect(Boolean(refused?.errors.files)).toBe(blocked);
    expect(blocked).toBe(stored === 0 && !inFlight && !Object.values(skips).some(Boolean));
    if (refused) expect(refused.errors.files).toBe(filesProblem(step, { stored, skips, onTheWay: false }));
  });

  it("names each step's own message", () => {
    expect(filesProblem(5, { stored: 0, skips: NO_SKIPS, onTheWay: false })).toBe("wizard.errors.matrixFilesRequired");
    expect(filesProblem(7, { stored: 0, skips: NO_SKIPS, onTheWay: false })).toBe("wizard.errors.alignerFilesRequired");
    expect(filesProblem(10, { stored: 0, skips: NO_SKIPS, onTheWay: false })).toBe("wizard.errors.retainerFilesRequired");
    expect(filesProblem(6, { stored: 0, skips: NO_SKIPS, onTheWay: false })).toBeNull();
  });
});

describe("the forward button", () => {
  const base: ForwardFacts = { noPatient: false, following: true, patientCount: 0, patientTyped: false, consentRequired: true, consent: false, files: null };

  it("waits for a patient on step 4, a typed name counting as one", async () => {
    expect(forwardBlocked(4, base)).toBe(true);
    expect(forwardBlocked(4, { ...base, patientTyped: true })).toBe(false);
    expect(forwardBlocked(4, { ...base, patientCount: 1 })).toBe(false);
    const refused = await checkStep({ step: 4, order, patient: null, patientCount: 0, form: wizardFormSchema.parse({}), typed: {}, market: "domestic" });
    expect(refused?.errors.patient_name).toBe("wizard.errors.patientRequired");
  });

  it("waits for the consent on step 3 where it is asked, as the server does", async () => {
    expect(forwardBlocked(3, base)).toBe(true);
    expect(forwardBlocked(3, { ...base, consent: true })).toBe(false);
    expect(forwardBlocked(3, { ...base, consentRequired: false })).toBe(false);
    const filled = { full_name: "Иванова А.", address: "Москва" };
    expect((await checkStep({ step: 3, order, patient: null, patientCount: 0, form: wizardFormSchema.parse(filled), typed: {}, market: "domestic" }))?.errors).toEqual({ consent: "wizard.errors.consentRequired" });
    expect(await checkStep({ step: 3, order, patient: null, patientCount: 0, form: wizardFormSchema.parse({ ...filled, consent: "on" }), typed: {}, market: "domestic" })).toBeNull();
  });

  it("says why it is held, in the words the page shows beside it", () => {
    expect(forwardHeldBy(3, base)).toBe("wizard.errors.consentRequired");
    expect(forwardHeldBy(4, base)).toBe("wizard.errors.patientNameRequired");
    expect(forwardHeldBy(5, { ...base, files: { stored: 0, skips: { skipMatrix: false, skipAligners: false, skipRetainers: false }, onTheWay: false } })).toBe("wizard.errors.matrixFilesRequired");
    expect(forwardHeldBy(3, { ...base, consent: true })).toBeNull();
  });

  it("follows nothing typed before the page is hydrated (the server answers), but always stops without a patient", () => {
    expect(forwardBlocked(3, { ...base, following: false })).toBe(false);
    expect(forwardBlocked(4, { ...base, following: false })).toBe(false);
    expect(forwardBlocked(9, { ...base, noPatient: true })).toBe(true);
  });
});
