import { describe, expect, it } from "vitest";
import { CARD_FILES_LISTED, foldFiles, stepRanges } from "./card-files";

const file = (name: string, jaw: "upper" | "lower", step: number | null, guessed = false) => ({ name, jaw, step, guessed });

describe("the packer card's files", () => {
  it("joins consecutive steps into runs, whatever their order and repeats", () => {
    expect(stepRanges([3, 1, 2, 5, 7, 8, 8])).toEqual(["01–03", "05", "07–08"]);
    expect(stepRanges([])).toEqual([]);
  });

  it("lists a few files whole", () => {
    const few = Array.from({ length: CARD_FILES_LISTED }, (_, index) => file(`u${index + 1}.stl`, "upper", index + 1));
    expect(foldFiles(few)).toBeNull();
  });

  it("folds many into each jaw's steps counts those read from their names, and names only the files that share a jaw and step", () => {
    const files = [
      ...Array.from({ length: 10 }, (_, index) => file(`upper_${index + 1}.stl`, "upper", index + 1)),
      ...Array.from({ length: 9 }, (_, index) => file(`lower_${index + 1}.stl`, "lower", index + 1)),
      file("lower_9_again.stl", "lower", 9),
      file("scan.stl", "lower", 12, true),
      file("attachment.stl", "upper", null),
    ];
    const folded = foldFiles(files)!;
    expect(folded.count).toBe(22);
    expect(folded.jaws).toEqual([
      { jaw: "upper", ranges: ["01–10"], withoutStep: 1 },
      { jaw: "lower", ranges: ["01–09", "12"], withoutStep: 0 },
    ]);
    expect(folded.guessed).toBe(1);
    expect(folded.named.map((named) => named.name)).toEqual(["lower_9.stl", "lower_9_again.stl"]);
  });
});
