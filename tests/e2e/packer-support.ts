import fs from "node:fs";
import path from "node:path";
import { dataDir } from "./support";

/** The packer password of the server under test: fixed for PostgreSQL runs, generated for `npm start`. */
export function packerPassword(): string {
  if (process.env.E2E_TARGET !== "embedded") return "e2e-packer-password";
  // The run's own data folder (E2E_RUN), as the back-office password is read.
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  return secrets.PACKER_PASSWORD;
}

/** Pages and page sizes (points) of a PDF as Chromium writes it: page objects and their MediaBox, uncompressed. */
export function pdfPages(pdf: Buffer): { pages: number; sizes: Array<[number, number]> } {
  const text = pdf.toString("latin1");
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  const sizes = [...text.matchAll(/\/MediaBox\s*\[\s*([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)\s+([\d.-]+)\s*\]/g)].map(
    (match): [number, number] => [Number(match[3]) - Number(match[1]), Number(match[4]) - Number(match[2])],
  );
  return { pages, sizes };
}
