import { FILE_TYPES, type FileType } from "~db/schema";

/**
 * Names of uploaded STL files (DESIGN §4.12, customer-side §5): the stored name and the storage
 * key are built by the server only, from parts that cannot escape their folder.
 */

/** Longest base (the part before `_{timestamp}.stl`) of a stored name. */
export const MAX_STORED_BASE_LENGTH = 80;

// A simple GOST-like table (passport style, no diacritics); Ukrainian and Belarusian letters too.
// prettier-ignore
const CYRILLIC: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "yo", ж: "zh", з: "z", и: "i", й: "y",
  к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f",
  х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
  і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u",
};

function isUpperLetter(char: string | undefined): boolean {
  return char !== undefined && char !== char.toLowerCase() && char === char.toUpperCase();
}

/**
 * Cyrillic to Latin. An upper-case letter becomes "Zh"-style, or "ZH" inside an all-caps word
 * ("ЩУКА" → "SHCHUKA", "Щука" → "Shchuka"). Other characters are left alone.
 */
export function transliterate(text: string): string {
  const chars = Array.from(text.normalize("NFC"));
  let out = "";
  chars.forEach((char, index) => {
    const lower = char.toLowerCase();
    const latin = CYRILLIC[lower];
    if (latin === undefined) {
      out += char;
      return;
    }
    if (lower === char || latin === "") {
      out += latin;
      return;
    }
    const next = chars[index + 1];
    const previous = chars[index - 1];
    const allCaps = isUpperLetter(next) || (!/\p{L}/u.test(next ?? "") && isUpperLetter(previous));
    out += allCaps ? latin.toUpperCase() : latin.charAt(0).toUpperCase() + latin.slice(1);
  });
  return out;
}

/** Whether the name ends in an extension the wizard takes: `.stl`, `.ply` or `.obj`, in any case (ADR 102). */
export function hasMeshExtension(name: string): boolean {
  return /\.(stl|ply|obj)$/i.test(name);
}

/**
 * Where the file a doctor sent as PLY or OBJ is kept (ADR 102): beside the binary STL made from it,
 * under the same name with its own extension (`…_1700000000000.stl` → `…_1700000000000.ply`).
 */
export function sourceKeyOf(stlKey: string, format: "ply" | "obj"): string {
  return stlKey.replace(/\.stl$/, `.${format}`);
}

/**
 * The name a file is stored under: the original's last path segment, transliterated, every
 * character other than ASCII letters, digits, dot and hyphen turned into `_` (runs collapsed, no
 * leading/trailing dots or underscores, no `..`), at most 80 characters, then `_{ms timestamp}.stl`.
 * "Шаг 01 верх.STL" → "Shag_01_verkh_1700000000000.stl"; "scan.ply" → "scan_1700000000000.stl" (the
 * STL made from it, ADR 102). A name without `.stl`, `.ply` or `.obj` keeps its whole text as the
 * base; a name with nothing usable left becomes "file".
 */
export function storedFileName(originalName: string, now: Date): string {
  const time = now.getTime();
  if (!Number.isFinite(time)) throw new RangeError("storedFileName: invalid date");
  const lastSegment = originalName.split(/[/\\]/).pop() ?? "";
  const withoutExtension = hasMeshExtension(lastSegment) ? lastSegment.slice(0, -4) : lastSegment;
  const base = transliterate(withoutExtension)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "") // "é" → "e" once the accent is a separate mark
    .replace(/[^A-Za-z0-9.-]/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/_{2,}/g, "_")
    .replace(/^[._-]+/, "")
    .slice(0, MAX_STORED_BASE_LENGTH)
    .replace(/[._-]+$/, "");
  return `${base || "file"}_${time}.stl`;
}

export class StorageKeyError extends Error {
  constructor(part: string, value: string) {
    super(`Invalid ${part} for a storage key: ${JSON.stringify(value)}`);
    this.name = "StorageKeyError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATIENT_FOLDER = /^[0-9A-Za-z_-]{1,200}$/;
const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

export function isFileType(value: unknown): value is FileType {
  return typeof value === "string" && (FILE_TYPES as readonly string[]).includes(value);
}

/**
 * `order_{orderId}/{patientFolder}/{fileType}/{storedName}`. Throws StorageKeyError unless the
 * order id is a UUID, the folder matches `^[0-9A-Za-z_-]+$`, the type is matrix/aligners/retainer
 * and the stored name is a plain file name (letters, digits, `.`, `_`, `-`; no `..`).
 */
export function storageKey(orderId: string, patientFolder: string, fileType: FileType, storedName: string): string {
  if (!UUID.test(orderId)) throw new StorageKeyError("order id", orderId);
  if (!PATIENT_FOLDER.test(patientFolder)) throw new StorageKeyError("patient folder", patientFolder);
  if (!isFileType(fileType)) throw new StorageKeyError("file type", String(fileType));
  if (!STORED_NAME.test(storedName) || storedName.includes("..")) throw new StorageKeyError("stored file name", storedName);
  return `order_${orderId.toLowerCase()}/${patientFolder}/${fileType}/${storedName}`;
}
