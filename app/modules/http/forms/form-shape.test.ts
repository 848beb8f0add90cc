import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { echoedPayload, fieldNamesOf, formShapeProblem, MAX_FORM_ENTRIES } from "./form-shape";

const flat = z.object({ email: z.string(), ids: z.optional(z.array(z.string())) });
const intents = z.discriminatedUnion("intent", [z.object({ intent: z.literal("a"), name: z.string() }), z.object({ intent: z.literal("b"), amount: z.pipe(z.string(), z.transform(Number)) })]);

describe("the names a form's schema reads", () => {
  it("are an object's keys, through wrappers, pipes and every option of a union", () => {
    expect(fieldNamesOf(flat)).toEqual(new Set(["email", "ids"]));
    expect(fieldNamesOf(z.optional(flat))).toEqual(new Set(["email", "ids"]));
    expect(fieldNamesOf(intents)).toEqual(new Set(["intent", "name", "amount"]));
    expect(fieldNamesOf(z.pipe(flat, z.transform((v) => v)))).toEqual(new Set(["email", "ids"]));
  });

  it("are any name for a schema that takes any (a record)", () => {
    expect(fieldNamesOf(z.record(z.string(), z.string()))).toBeNull();
  });
});

describe("a form's shape", () => {
  const known = fieldNamesOf(flat);

  it("passes flat names, repeated names and small indexes under the schema's fields", () => {
    expect(formShapeProblem(["email", "ids", "ids", "ids[3]", "step"], known)).toBeNull();
  });

  it("refuses an index above the limit, the 34-byte body that built billions of slots", () => {
    expect(formShapeProblem(["email", "x[4294967294]"], known)).toMatch(/index|does not have/);
    expect(formShapeProblem(["ids[4294967294]"], known)).toMatch(/index above 99/);
    expect(formShapeProblem(["ids[100]"], known)).toMatch(/index above 99/);
    expect(formShapeProblem([`ids[${"9".repeat(400)}]`], known)).toMatch(/index above/);
  });

  it("refuses structure under a name the schema does not have, deep paths and malformed names", () => {
    expect(formShapeProblem(["x.y"], known)).toMatch(/does not have/);
    expect(formShapeProblem(["ids[0].a.b.c"], known)).toMatch(/deeper/);
    expect(formShapeProblem(["ids]["], known)).toMatch(/malformed/);
    expect(formShapeProblem(["[0]"], known)).toMatch(/does not have/);
  });

  it("refuses conform's own control fields and more values than any form has", () => {
    expect(formShapeProblem(["__intent__"], known)).toMatch(/control/);
    expect(formShapeProblem(["__state__"], known)).toMatch(/control/);
    expect(formShapeProblem(Array.from({ length: MAX_FORM_ENTRIES + 1 }, () => "email"), known)).toMatch(/more than/);
    expect(formShapeProblem(Array.from({ length: 10_000 }, (_, i) => `name${i}`), known)).toMatch(/more than/);
    expect(formShapeProblem(Array.from({ length: MAX_FORM_ENTRIES }, () => "email"), known)).toBeNull();
  });

  it("echoes back only the form's own fields", () => {
    expect(echoedPayload({ email: "a", step: "4", junk: "x".repeat(10) }, known)).toEqual({ email: "a" });
  });
});
