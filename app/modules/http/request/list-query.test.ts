import { describe, expect, it } from "vitest";
import {
  decodeCursor,
  encodeCursor,
  flag,
  listQuerySchema,
  oneOf,
  readQuery,
  SEARCH_MAX,
} from "./list-query";

const dashboard = listQuerySchema(
  {
    statuses: ["work", "all", "paid"] as const,
    defaultStatus: "work",
    sorts: { date: "desc", total: "desc", status: "asc" } as const,
  },
  { view: oneOf(["cards", "table"] as const, null), empty: flag }
);
const read = (search: string) =>
  readQuery(new URL(`http://x/list?${search}`), dashboard);

describe("the list query", () => {
  it("gives the first page, the default tab and sort when the address says nothing", () => {
    expect(read("")).toEqual({
      page: 1,
      after: null,
      before: null,
      q: "",
      status: "work",
      from: null,
      to: null,
      market: null,
      sort: "date",
      dir: "desc",
      view: null,
      empty: false,
    });
  });

  it("reads every field it knows", () => {
    const query = read(
      "page=3&q=+Smith+&status=paid&from=2026-01-31&to=2026-02-28&market=domestic&sort=total&dir=asc&view=table&empty=1"
    );
    expect(query).toMatchObject({
      page: 3,
      q: "Smith",
      status: "paid",
      from: "2026-01-31",
      to: "2026-02-28",
      market: "domestic",
      sort: "total",
      dir: "asc",
      view: "table",
      empty: true,
    });
  });

  it("falls back to defaults on forged values instead of failing", () => {
    for (const page of ["abc", "0", "-2", "1.5", "1e3", "9999999", ""])
      expect(read(`page=${page}`).page).toBe(1);
    const query = read(
      "status=evil&from=2026-02-30&to=yesterday&market=mars&sort=id&dir=sideways&view=grid&empty=yes&after=%%%"
    );
    expect(query).toMatchObject({
      status: "work",
      from: null,
      to: null,
      market: null,
      sort: "date",
      dir: "desc",
      view: null,
      empty: false,
      after: null,
    });
  });

  it("takes a sort's own first direction unless one is asked for", () => {
    expect(read("sort=status").dir).toBe("asc");
    expect(read("sort=status&dir=desc").dir).toBe("desc");
  });

  it("cuts a search by the one rule: control characters out, trimmed, at most SEARCH_MAX characters", () => {
    expect(read(`q=${"a".repeat(10_000)}`).q).toHaveLength(SEARCH_MAX);
    expect(read("q=%00ab%07c%E2%80%AE").q).toBe("abc");
    // Whole characters: an emoji at the edge is not cut in half.
    const emoji = read(
      `q=${encodeURIComponent("😀".repeat(SEARCH_MAX + 5))}`
    ).q;
    expect(Array.from(emoji)).toHaveLength(SEARCH_MAX);
    expect(emoji).toBe("😀".repeat(SEARCH_MAX));
  });

  it("round-trips a keyset cursor and refuses what is not one", () => {
    const cursor = [
      "2026-11-28 08:36:04.123456+00",
      1250,
      "c8b2f0e1-7aa1-4c1e-9d7a-0f5b3c2a1e00",
    ];
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(read(`after=${encodeCursor(cursor)}`).after).toEqual(cursor);
    expect(decodeCursor(encodeCursor(["Ünïcode ✓"]))).toEqual(["Ünïcode ✓"]);
    for (const bad of [
      "",
      "abc",
      encodeCursor([]),
      btoa('{"a":1}'),
      encodeCursor([{ a: 1 } as unknown as string]),
      encodeCursor(["x".repeat(101)]),
      "a".repeat(1000),
    ])
      expect(decodeCursor(bad)).toBeNull();
  });

  it("keeps an `after` cursor over a `before` one", () => {
    const query = read(
      `after=${encodeCursor(["a", "1"])}&before=${encodeCursor(["b", "2"])}`
    );
    expect(query.after).toEqual(["a", "1"]);
    expect(query.before).toBeNull();
  });

  it("reads only the first value of a name, and no name it does not know", () => {
    expect(read("page=2&page=7&unknown=1").page).toBe(2);
  });
});
