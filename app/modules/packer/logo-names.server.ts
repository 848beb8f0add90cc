import { createHash } from "node:crypto";
import { normalizeEmail } from "~/modules/validation/email";

/**
 * Where a client's logo lives in the `logos` bucket (staff-partner-packer §3, §9; DESIGN §4.28):
 * one folder per client e-mail, named by the spec's encoding of the e-mail (URI-encoded, then
 * "%", "@" and "." turned into "_") plus "-" and the first 8 hex characters of the SHA-256 of the
 * lower-cased e-mail, so e-mails that encode alike ("a.b@x.ru", "a_b@x.ru") never share a folder.
 * The file inside is named by the encoded e-mail too; one file per client, replaced on upload.
 */

/** Keeps folder and file names well under the 255-byte limit of file systems (and S3's 1024-byte keys); the hash keeps them apart. */
const MAX_ENCODED_LENGTH = 100;

export const normalizeLogoEmail = (email: string) => normalizeEmail(email) ?? "";

/** The spec's encoding: "Dr.Ivanov@Clinic.ru" → "dr_ivanov_40clinic_ru". */
export function encodeLogoEmail(email: string): string {
  return encodeURIComponent(normalizeLogoEmail(email)).replace(/[%@.]/g, "_").slice(0, MAX_ENCODED_LENGTH);
}

export function logoFolder(email: string): string {
  const hash = createHash("sha256").update(normalizeLogoEmail(email)).digest("hex").slice(0, 8);
  return `${encodeLogoEmail(email)}-${hash}`;
}

/** The storage key of a client's logo in the `logos` bucket. */
export function logoKey(email: string): string {
  return `${logoFolder(email)}/${encodeLogoEmail(email)}`;
}

/** A folder name as it may appear in a logo URL: what `logoFolder` can produce, nothing else. */
export const isLogoFolder = (value: string) => /^[A-Za-z0-9_!'()*~-]{1,100}-[0-9a-f]{8}$/.test(value);
