import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { BagLabel } from "./bag-labels";
import { groupedBagCode } from "./bag-code";
import { QR_QUIET_ZONE, qrMatrix } from "./qr.server";

/**
 * Box and bag labels as PDF made on the server (ADR 103), for printers and browsers that do not honour
 * CSS `@page`: each bag label one page of exactly 80 × 80 mm, the box label one A4 page with the
 * order's contents. Text in DejaVu Sans (Cyrillic, Latin, the ✓ of the page), embedded and subset, so
 * the PDF reads the same on any PC; the QR codes are vector squares, as the HTML labels draw them.
 */

const require = createRequire(import.meta.url);
// Resolved lazily, by their literal names, from the font package.
const FONTS = {
  regular: () => require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: () => require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
  mono: () => require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf"),
} as const;

const MM = 72 / 25.4;
/** The bag label's page: 80 × 80 mm, in points. */
export const BAG_PAGE: [number, number] = [80 * MM, 80 * MM];
/** A4 in points, as PDF readers and printers take it. */
export const A4_PAGE: [number, number] = [595.28, 841.89];

type Translate = (key: string, values?: Record<string, string | number>) => string;

function newDocument(title: string, size: [number, number]) {
  const doc = new PDFDocument({ size, margin: 0, autoFirstPage: false, info: { Title: title, Creator: "aligner packing station" }, lang: "ru" });
  for (const [name, file] of Object.entries(FONTS)) doc.registerFont(name, file());
  return doc;
}

async function finished(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.end();
  return done;
}

/** A QR code of `text` as black squares in a white square of `side` points (quiet zone included). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, side: number) {
  const matrix = qrMatrix(text);
  const module = side / (matrix.length + 2 * QR_QUIET_ZONE);
  doc.rect(x, y, side, side).fill("#ffffff");
  matrix.forEach((row, r) => {
    for (let c = 0; c < row.length; ) {
      if (!row[c]) {
        c++;
        continue;
      }
      let run = 1;
      while (row[c + run]) run++;
      doc.rect(x + (c + QR_QUIET_ZONE) * module, y + (r + QR_QUIET_ZONE) * module, run * module, module);
      c += run;
    }
  });
  doc.fill("#000000");
}

/** Every bag label of an order, one 80 × 80 mm page each, in the order the HTML page prints them. */
export async function bagLabelsPdf(title: string, labels: readonly BagLabel[], t: Translate): Promise<Buffer> {
  const doc = newDocument(title, BAG_PAGE);
  const pad = 4 * MM;
  const width = BAG_PAGE[0] - 2 * pad;
  for (const label of labels) {
    doc.addPage({ size: BAG_PAGE, margin: 0 });
    doc.fillColor("#000000");
    doc.font("bold").fontSize(16).text(t(`packer.kinds.${label.kind}`), pad, pad, { width, lineBreak: false });
    doc.font("bold").fontSize(16).text(label.orderNumber, pad, pad, { width, align: "right", lineBreak: false });
    doc.font("bold").fontSize(12).text(label.patientName, pad, pad + 22, { width, height: 30, ellipsis: true });
    const qrSide = 38 * MM;
    const qrTop = pad + 56;
    drawQr(doc, label.code, pad - 2 * MM, qrTop, qrSide);
    doc.font("mono").fontSize(7).text(groupedBagCode(label.code), pad - 2 * MM, qrTop + qrSide + 2, { width: qrSide + 4 * MM, lineBreak: false });
    const right = pad + qrSide - 2 * MM + 3 * MM;
    const column = BAG_PAGE[0] - pad - right;
    doc.font("bold").fontSize(40).text(t(`packer.jaw.${label.jaw}`), right, qrTop + 6, { width: column, lineBreak: false });
    if (label.step) doc.font("bold").fontSize(17).text(t("packer.bags.step", { step: label.step }), right, qrTop + 52, { width: column, lineBreak: false });
    doc.font("regular").fontSize(7.5).text(label.folderPath, right, qrTop + 76, { width: column, height: 18, ellipsis: true });
    doc.font("regular").fontSize(7.5).text(label.fileName, right, qrTop + 86, { width: column, height: 20, ellipsis: true });
  }
  return finished(doc);
}

export interface BoxLabelFacts {
  number: string;
  client: string | null;
  address: string | null;
  patients: number;
}

/** The box label on one A4 page: the order's number, client, address, and what the box holds — each bag's kind, jaw and stage. */
export async function boxLabelPdf(title: string, box: BoxLabelFacts, labels: readonly BagLabel[], t: Translate): Promise<Buffer> {
  const doc = newDocument(title, A4_PAGE);
  const margin = 20 * MM;
  const width = A4_PAGE[0] - 2 * margin;
  doc.addPage({ size: A4_PAGE, margin });
  doc.font("bold").fontSize(96).text(box.number, margin, margin, { width, align: "center" });
  doc.moveDown(0.3);
  const field = (name: string, value: string) => {
    doc.font("regular").fontSize(10).fillColor("#444444").text(name.toUpperCase(), { width });
    doc.font("bold").fontSize(18).fillColor("#000000").text(value, { width, height: 70, ellipsis: true });
    doc.moveDown(0.4);
  };
  field(t("packer.box.client"), box.client ?? t("packer.card.noClient"));
  field(t("packer.box.address"), box.address ?? t("packer.card.noAddress"));
  field(t("packer.box.patients"), String(box.patients));
  if (labels.length > 0) {
    doc.font("bold").fontSize(14).text(t("packer.bags.count", { count: labels.length }), { width });
    doc.moveDown(0.2);
    let patient = "";
    for (const label of labels) {
      if (label.folderName !== patient) {
        patient = label.folderName;
        doc.font("bold").fontSize(11).text(`${label.patientName} · ${label.folderPath}`, { width });
      }
      const step = label.step ? `, ${t("packer.bags.step", { step: label.step })}` : "";
      doc.font("regular").fontSize(10).text(`${t(`packer.kinds.${label.kind}`)} · ${t(`packer.jaw.${label.jaw}`)}${step} · ${groupedBagCode(label.code)}`, { width, indent: 12 });
    }
  }
  return finished(doc);
}
