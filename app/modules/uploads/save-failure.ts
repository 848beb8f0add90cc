import type { FileType } from "~db/schema";

/**
 * "Ошибка сохранения" (customer side §8): a file list that could not be saved in the database, in the
 * retainer's wording or with the data's name for the other lists. The plain form, the resumable
 * upload's answer and the page with JavaScript all say it with these keys.
 */
export function fileListSaveFailure(type: FileType): { title: string; description: string } {
  if (type === "retainer") return { title: "failures.saveTitle", description: "failures.saveFiles" };
  return { title: "failures.saveTitle", description: type === "matrix" ? "failures.saveMatrixFiles" : "failures.saveAlignerFiles" };
}
