/**
 * Which interface texts a page carries (DESIGN §7: page weight, server time per request). Every
 * hydrated page receives its texts in the root loader's data, so each text sent costs bytes on the
 * wire and server time to encode and compress on every request. The staff areas below are used
 * only under the staff paths; customer pages are sent everything else. The root revalidates its
 * data whenever a navigation crosses between the two (root.tsx `shouldRevalidate`).
 */
export const STAFF_TEXT_AREAS = ["bo", "ftp", "translations", "packer"] as const;

const STAFF_PATH = /^\/(?:backoffice|send-test|packer)(?:[/.]|$)/;

export function isStaffPath(pathname: string): boolean {
  return STAFF_PATH.test(pathname);
}
