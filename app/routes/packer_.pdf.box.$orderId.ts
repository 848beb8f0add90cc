import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadBoxLabelPdf } from "~/modules/packer/label-pdf-page.server";

/** The box label as PDF on A4, with the box's contents (ADR 103). */
export async function loader(args: LoaderFunctionArgs) {
  return loadBoxLabelPdf(args);
}
