import { describe, expect, it } from "vitest";
import { BAD_CHARACTERS, hasForbiddenCharacters, textProblem, TOO_LONG, withoutForbiddenCharacters } from "./text";

describe("typed text checks", () => {
  it("refuses control characters and bidirectional overrides, keeps tabs, line breaks and any script", () => {
    for (const bad of ["a\u0000b", "bell\u0007", "\u001b[31m", "del\u007f", "txt\u202Eexe", "\u2066iso\u2069"]) expect(hasForbiddenCharacters(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ["Иванова Анна", "line\nbreak\r\n\ttab", "O'Brien; drop table", "<b>x</b>", "😀 Zoë"]) expect(hasForbiddenCharacters(good), good).toBe(false);
  });

  it("names the problem: characters first, then length", () => {
    expect(textProblem("ok", 5)).toBeNull();
    expect(textProblem("toolong", 5)).toBe(TOO_LONG);
    expect(textProblem("too\u0000long", 5)).toBe(BAD_CHARACTERS);
  });

  it("strips what it refuses (for search boxes)", () => {
    expect(withoutForbiddenCharacters("a\u0000b\u202Ec")).toBe("abc");
  });
});
