import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadBagLabelsPdf } from "~/modules/packer/label-pdf-page.server";

/** Bag labels as PDF, one 80 × 80 mm page each (ADR 103). */
export async function loader(args: LoaderFunctionArgs) {
  return loadBagLabelsPdf(args);
}
