import qrcode from "qrcode-generator";

/**
 * QR codes for bag labels, drawn on the server as one SVG path (no JavaScript, no image request):
 * each run of dark modules in a row becomes one rectangle. Error correction M (15 %) survives a
 * crumpled bag; the caller adds the 4-module quiet zone around it with the viewBox.
 */
export interface QrPath {
  /** Modules per side. */
  size: number;
  /** SVG path data in module units. */
  path: string;
}

export const QR_QUIET_ZONE = 4;

export function qrMatrix(text: string): boolean[][] {
  const qr = qrcode(0, "M");
  // The library writes each char code as one byte: hand it the UTF-8 bytes as a binary string.
  qr.addData(String.fromCharCode(...new TextEncoder().encode(text)), "Byte");
  qr.make();
  const size = qr.getModuleCount();
  return Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, column) => qr.isDark(row, column)));
}

export function qrPath(text: string): QrPath {
  const matrix = qrMatrix(text);
  let path = "";
  matrix.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (row[x + run]) run++;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  return { size: matrix.length, path };
}
