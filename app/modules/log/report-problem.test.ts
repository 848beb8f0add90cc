import { afterEach, describe, expect, it, vi } from "vitest";
import { reportProblem, reportProblemsTo } from "./report-problem";

describe("reportProblem", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes to the console where no logger was handed in, as in the browser", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    reportProblem("Missing translation: common:nav.nowhere (ru)");
    expect(consoleError).toHaveBeenCalledWith("Missing translation: common:nav.nowhere (ru)");
  });

  it("goes to the server's logger once it is handed in, and no longer to the console", () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const logged: string[] = [];
    reportProblemsTo((message) => logged.push(message));
    reportProblem("Missing translation: common:nav.nowhere (en)");
    expect(logged).toEqual(["Missing translation: common:nav.nowhere (en)"]);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
