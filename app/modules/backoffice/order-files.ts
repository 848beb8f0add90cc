import type { FileType } from "~db/schema";

/** The kinds of an order's files, in the order staff read them, with their label keys. */
export const FILE_KINDS: ReadonlyArray<{ type: FileType; label: string }> = [
  { type: "matrix", label: "wizard.summary.matrix" },
  { type: "aligners", label: "wizard.summary.aligners" },
  { type: "retainer", label: "wizard.summary.retainers" },
];

/** The anchor of one patient's files on the order's files page (the card links there). */
export const patientFilesId = (folder: string) => `files-${folder}`;
