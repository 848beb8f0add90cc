import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { QR_QUIET_ZONE, qrMatrix, qrPath } from "./qr.server";

/** Draws the module matrix as a scanner would see it (4 px per module, white quiet zone) and reads it back. */
function scan(matrix: boolean[][]): string | null {
  const scale = 4;
  const side = (matrix.length + 2 * QR_QUIET_ZONE) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const offset = (((y + QR_QUIET_ZONE) * scale + dy) * side + (x + QR_QUIET_ZONE) * scale + dx) * 4;
          pixels.fill(0, offset, offset + 3);
        }
    }),
  );
  return jsQR(pixels, side, side)?.data ?? null;
}

/** Rebuilds the matrix from the SVG path, so the test reads what the label actually draws. */
function matrixFromPath(size: number, path: string): boolean[][] {
  const matrix = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(run); i++) matrix[Number(y)]![Number(x) + i] = true;
  }
  return matrix;
}

describe("bag label QR codes", () => {
  it.each(["ab12/ab12_1", "0f3c/0f3c_12", "ab12/пациент_1"])("reads back %s from the drawn path", (text) => {
    const { size, path } = qrPath(text);
    expect(size).toBeGreaterThanOrEqual(21);
    expect(matrixFromPath(size, path)).toEqual(qrMatrix(text));
    expect(scan(matrixFromPath(size, path))).toBe(text);
  });

  it("stays small: a label's code is a version 1–2 symbol of a few hundred bytes of path", () => {
    const { size, path } = qrPath("ab12/ab12_10");
    expect(size).toBeLessThanOrEqual(25);
    expect(path.length).toBeLessThan(3000);
  });
});
