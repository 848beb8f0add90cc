import { describe, expect, it } from "vitest";
import { firstLink } from "./outbox-mailer.server";

describe("firstLink", () => {
  it("finds the first http(s) link and leaves trailing punctuation out", () => {
    expect(firstLink("Sign in: https://example.com/auth?token=a.b-c_d. Thanks")).toBe("https://example.com/auth?token=a.b-c_d");
    expect(firstLink("see (http://localhost:3000/x), or https://other")).toBe("http://localhost:3000/x");
  });

  it("is undefined without a link", () => {
    expect(firstLink("no link here, ftp://nope")).toBeUndefined();
  });
});
