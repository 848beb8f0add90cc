import { describe, expect, it } from "vitest";
import { asciiStl, binaryStl } from "./stl-fixtures";
import { binaryStlTriangles, createStlInspector, inspectStl, type StlVerdict } from "./stl";

const encode = (text: string) => new TextEncoder().encode(text);

function inspectChunks(chunks: Uint8Array[]): StlVerdict {
  const inspector = createStlInspector();
  for (const chunk of chunks) inspector.update(chunk);
  return inspector.finish();
}

function inChunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

/** Every way to cut `bytes` into two pieces (empty pieces included). */
function* everyTwoWaySplit(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let cut = 0; cut <= bytes.length; cut++) yield [bytes.subarray(0, cut), bytes.subarray(cut)];
}

/** Every way to cut `bytes` into three pieces. */
function* everyThreeWaySplit(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let first = 0; first <= bytes.length; first++) {
    for (let second = first; second <= bytes.length; second++) {
      yield [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)];
    }
  }
}

/** Deterministic pseudo-random bytes (xorshift32). */
function pseudoRandomBytes(length: number, seed = 0x2545f491): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

describe("binary STL", () => {
  const model = binaryStl(3);

  it("is recognised with its triangle count", () => {
    expect(model.length).toBe(84 + 3 * 50);
    expect(inspectStl(model)).toEqual({ ok: true, format: "binary", triangles: 3 });
  });

  it("is recognised when the header starts with 'solid' and when it does not", () => {
    expect(inspectStl(binaryStl(2, "solid part"))).toEqual({ ok: true, format: "binary", triangles: 2 });
    expect(inspectStl(binaryStl(2, "  SOLID"))).toEqual({ ok: true, format: "binary", triangles: 2 });
    expect(inspectStl(binaryStl(2, "Exported by Exocad"))).toEqual({ ok: true, format: "binary", triangles: 2 });
  });

  it("gives the same verdict at every two- and three-way split", () => {
    const expected = { ok: true, format: "binary", triangles: 3 };
    for (const chunks of everyTwoWaySplit(model)) expect(inspectChunks(chunks)).toEqual(expected);
    let splits = 0;
    for (const chunks of everyThreeWaySplit(model)) {
      expect(inspectChunks(chunks)).toEqual(expected);
      splits++;
    }
    expect(splits).toBe(((model.length + 1) * (model.length + 2)) / 2);
  }, 60_000); // exhaustive: tens of thousands of splits, slow on a loaded machine

  it("gives the same verdict in 1-byte chunks and chunks of every size up to 100", () => {
    for (let size = 1; size <= 100; size++) {
      expect(inspectChunks(inChunksOf(model, size))).toEqual({ ok: true, format: "binary", triangles: 3 });
    }
  });

  it("refuses a truncated or padded file", () => {
    const big = binaryStl(10);
    expect(inspectStl(big.subarray(0, big.length - 1))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(big.subarray(0, big.length - 50))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(big.subarray(0, 84))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(big.subarray(0, 40))).toEqual({ ok: false, reason: "not_stl" });
    const padded = new Uint8Array(big.length + 1);
    padded.set(big);
    expect(inspectStl(padded)).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses a header that counts no triangles", () => {
    expect(inspectStl(binaryStl(0))).toEqual({ ok: false, reason: "not_stl" });
  });

  it("applies the size rule to the 32-bit little-endian count", () => {
    const header = new Uint8Array(84);
    new DataView(header.buffer).setUint32(80, 0x01020304, true);
    expect(binaryStlTriangles(84 + 50 * 0x01020304, header)).toBe(0x01020304);
    expect(binaryStlTriangles(84 + 50 * 0x04030201, header)).toBeNull();
    expect(binaryStlTriangles(84 + 50 * 0x01020304, header.subarray(0, 83))).toBeNull();
  });
});

describe("ASCII STL", () => {
  const text = asciiStl(2);
  const model = encode(text);

  it("is recognised with the number of facets", () => {
    expect(inspectStl(model)).toEqual({ ok: true, format: "ascii", triangles: 2 });
    expect(inspectStl(encode(asciiStl(1)))).toEqual({ ok: true, format: "ascii", triangles: 1 });
  });

  it("gives the same verdict at every two- and three-way split", () => {
    const expected = { ok: true, format: "ascii", triangles: 2 };
    for (const chunks of everyTwoWaySplit(model)) expect(inspectChunks(chunks)).toEqual(expected);
    for (const chunks of everyThreeWaySplit(model)) expect(inspectChunks(chunks)).toEqual(expected);
  }, 60_000);

  it("counts many facets in 1-byte chunks and chunks of every size up to 64", () => {
    const many = encode(asciiStl(250, { newline: "\r\n", indent: "\t" }));
    for (let size = 1; size <= 64; size++) {
      expect(inspectChunks(inChunksOf(many, size))).toEqual({ ok: true, format: "ascii", triangles: 250 });
    }
  });

  it("accepts a BOM, leading whitespace, CRLF, tabs, upper case, wide gaps and trailing blank lines", () => {
    const variants = [
      "\uFEFF" + text,
      "\n\n   " + text,
      "\uFEFF \r\n" + text,
      text.replaceAll("\n", "\r\n"),
      text.replaceAll("\n", "\r"),
      text.toUpperCase(),
      text.replaceAll("facet normal", "facet \t  normal"),
      text + "\n\n  \t\r\n",
      text.trimEnd(), // no newline after endsolid
      "solid\n" + text.slice(text.indexOf("\n") + 1).replace("endsolid model", "endsolid"),
      // a name with UTF-8 letters
      text.replaceAll("model", "Иванов_верх"),
    ];
    for (const variant of variants) {
      const bytes = encode(variant);
      expect(inspectStl(bytes), JSON.stringify(variant.slice(0, 20))).toEqual({ ok: true, format: "ascii", triangles: 2 });
      expect(inspectChunks(inChunksOf(bytes, 1)), JSON.stringify(variant.slice(0, 20))).toEqual({ ok: true, format: "ascii", triangles: 2 });
    }
  });

  it("does not count near misses of 'facet normal'", () => {
    const tricky = text.replace("solid model", "solid facetnormal facet\nnormal facet facet normaL fac et normal");
    expect(inspectStl(encode(tricky))).toEqual({ ok: true, format: "ascii", triangles: 3 });
    const ffacet = text.replace("solid model", "solid ffacet  normall");
    expect(inspectStl(encode(ffacet))).toEqual({ ok: true, format: "ascii", triangles: 3 });
  });

  it("refuses a truncated file (no endsolid at the end)", () => {
    const cut = text.slice(0, text.lastIndexOf("endsolid"));
    expect(inspectStl(encode(cut))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode(text.slice(0, text.length - 20)))).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses text after endsolid, a solid with no facets and other starts", () => {
    expect(inspectStl(encode(text + "something else\n"))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode("solid empty\nendsolid empty\n"))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode(text.replace("solid model", "solidmodel")))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode("x" + text))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode("solid"))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode("endsolid x\n"))).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses control bytes and a broken BOM", () => {
    const withNul = encode(text);
    withNul[40] = 0;
    expect(inspectStl(withNul)).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode(text.replace("outer loop", "outer\u0001loop")))).toEqual({ ok: false, reason: "not_stl" });
    const brokenBom = new Uint8Array([0xef, 0xbb, ...model]);
    expect(inspectStl(brokenBom)).toEqual({ ok: false, reason: "not_stl" });
    const lateBom = new Uint8Array([0x20, 0xef, 0xbb, 0xbf, ...model]);
    expect(inspectStl(lateBom)).toEqual({ ok: false, reason: "not_stl" });
  });
});

describe("not STL", () => {
  it("reports an empty file", () => {
    expect(inspectChunks([])).toEqual({ ok: false, reason: "empty" });
    expect(inspectChunks([new Uint8Array(0), new Uint8Array(0)])).toEqual({ ok: false, reason: "empty" });
  });

  it("refuses random bytes of many sizes", () => {
    for (const size of [1, 83, 84, 134, 1000, 65_536]) {
      const bytes = pseudoRandomBytes(size, size);
      expect(inspectStl(bytes)).toEqual({ ok: false, reason: "not_stl" });
      expect(inspectChunks(inChunksOf(bytes, 7))).toEqual({ ok: false, reason: "not_stl" });
    }
  });

  it("refuses a plain text file", () => {
    const note = "Пациент: Иванов\nВерхняя челюсть, шаг 1.\nsolid objects are nice\nendsolid\n";
    expect(inspectStl(encode(note))).toEqual({ ok: false, reason: "not_stl" });
    expect(inspectStl(encode("   \n\t"))).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses a PNG", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pseudoRandomBytes(500)]);
    expect(inspectStl(png)).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses a truncated binary STL whose header starts with 'solid'", () => {
    const model = binaryStl(40, "solid ascii-looking header");
    for (const cut of [1, 49, 50, 51, 1000]) {
      expect(inspectChunks(inChunksOf(model.subarray(0, model.length - cut), 13))).toEqual({ ok: false, reason: "not_stl" });
    }
  });
});

describe("inspector", () => {
  it("counts the bytes it was fed and cannot be fed after finishing", () => {
    const inspector = createStlInspector();
    inspector.update(new Uint8Array(10));
    inspector.update(new Uint8Array(5));
    expect(inspector.bytes).toBe(15);
    inspector.finish();
    expect(() => inspector.update(new Uint8Array(1))).toThrow(/finished/);
  });

  // Speed is a benchmark's business (bench/), not a timed unit test: here only the count matters.
  it("counts every facet of a large ASCII file fed in one chunk", () => {
    const chunk = encode(asciiStl(20_000)); // ~2.9 MB
    const inspector = createStlInspector();
    inspector.update(chunk);
    expect(inspector.finish()).toEqual({ ok: true, format: "ascii", triangles: 20_000 });
  });
});
