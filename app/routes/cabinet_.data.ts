import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadDataExport } from "~/modules/cabinet/data-export-page.server";

/**
 * GET /cabinet/data[?files=1]: the signed-in clinic's own data as a ZIP (ADR 078) — `data.json`, and
 * the stored models when asked. Anyone else is sent to sign in.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadDataExport(args);
}
