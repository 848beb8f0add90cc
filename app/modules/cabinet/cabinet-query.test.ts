import { describe, expect, it } from "vitest";
import { cursorParam, readCabinetQuery } from "./cabinet-query";

const read = (query: string) => readCabinetQuery(new URL(`http://clinic.test/cabinet?${query}`));
const ID = "5b0c3f1e-7d2a-4c1b-9e8f-0a1b2c3d4e5f";

describe("the cabinet's query", () => {
  it("reads a tab, a sort and the page's start the database wrote, and gives them back as a link", () => {
    const after = { createdAt: "2026-12-03T10:00:00.123456Z", id: ID };
    const query = read(new URLSearchParams({ status: "shipped", sort: "oldest", q: " Петров ", after: cursorParam(after) }).toString());
    expect(query).toEqual({ search: "Петров", status: "shipped", sort: "oldest", after, answer: false });
  });

  it("reads the tab \"Нужен ваш ответ\" as answer=1 only", () => {
    expect(read("answer=1").answer).toBe(true);
    for (const bad of ["answer=yes", "answer=", "answer=1%27", ""]) expect(read(bad).answer, bad).toBe(false);
  });

  it("still reads a link written before the keyset encoding (the time as PostgreSQL printed it, then the id)", () => {
    const after = { createdAt: "2026-12-03 10:00:00.123456+00", id: ID };
    expect(read(new URLSearchParams({ after: `${after.createdAt}_${after.id}` }).toString()).after).toEqual(after);
  });

  it("reads anything unknown or malformed as the first page of every order, newest first", () => {
    for (const bad of ["status=draft", "status=../x", "sort=random", `after=2026-02-30 10:00:00+00_${ID}`, "after=1999-01-01_'%3Bdrop", `after=2026-12-03 10:00:00+00_not-an-id`, "after=now()_x", `after=${cursorParam({ createdAt: "2026-12-03 10:00:00+00", id: ID })}`, `after=${cursorParam({ createdAt: "2026-12-03T10:00:00.123456Z", id: "x" })}`]) {
      const query = read(bad);
      expect(query.status === null || query.status === undefined, bad).toBe(true);
      expect(query.sort, bad).toBe("newest");
      expect(query.after, bad).toBeNull();
    }
  });
});
