import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { wholeDocument, withoutNulBytes } from "./whole-document.server";

describe("the rendered document as one buffer", () => {
  it("drops every 0 byte and keeps every other byte in order", () => {
    for (let round = 0; round < 200; round++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(Math.random() * 300) }, () => (Math.random() < 0.2 ? 0 : Math.floor(Math.random() * 256))));
      expect(withoutNulBytes(bytes).equals(Buffer.from(bytes.filter((byte) => byte !== 0)))).toBe(true);
    }
    expect(withoutNulBytes(Buffer.from([0, 0, 0])).length).toBe(0);
  });

  it("restores Cyrillic that React's 2 KB chunks cut with NUL bytes, joined from every chunk", async () => {
    const text = "Ошибка загрузки системы ".repeat(400);
    const bytes = Buffer.from(text);
    // Chunks cut inside characters, each followed by the NUL bytes React 18 leaves at a chunk's end.
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 2047) chunks.push(Buffer.concat([bytes.subarray(at, at + 2047), Buffer.from([0, 0])]));
    const html = await wholeDocument((destination) => Readable.from(chunks).pipe(destination));
    expect(html.toString("utf8")).toBe(text);
  });
});
