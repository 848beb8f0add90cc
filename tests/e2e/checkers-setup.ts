import fs from "node:fs";
import { DOCUMENTS_DIR, TALLY_FILE } from "./checkers";

/** Playwright's global setup: the outside checkers start each run with no documents and no tally from an earlier one. */
export default function clearCheckers() {
  fs.rmSync(DOCUMENTS_DIR, { recursive: true, force: true });
  fs.rmSync(TALLY_FILE, { force: true });
}
