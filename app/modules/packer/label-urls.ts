/** The packing station's label formats (ADR 103): the HTML pages, or the PDFs made on the server. */
export const LABEL_FORMATS = ["html", "pdf"] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** Where an order's labels open in that format. */
export function labelUrls(format: LabelFormat, orderId: string): { box: string; bags: string } {
  return format === "pdf" ? { box: `/packer/pdf/box/${orderId}`, bags: `/packer/pdf/bags/${orderId}` } : { box: `/packer/box/${orderId}`, bags: `/packer/bags/${orderId}` };
}
