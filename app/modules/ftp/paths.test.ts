import { describe, expect, it } from "vitest";
import { assertRemotePath, baseNameOf, destinationPath, normaliseDestination, normaliseRoot, parentOf, safeRemoteFileName, temporaryUploadPath, UnsafePathError } from "./paths";

describe("normaliseRoot", () => {
  it.each([
    ["/AlignersFactory", "/AlignersFactory"],
    ["AlignersFactory", "/AlignersFactory"],
    ["/AlignersFactory/", "/AlignersFactory"],
    ["//Aligners//Factory///", "/Aligners/Factory"],
    ["./AlignersFactory/.", "/AlignersFactory"],
    ["", "/"],
    ["/", "/"],
  ])("%j → %j", (root, expected) => {
    expect(normaliseRoot(root)).toBe(expected);
  });

  it.each(["/a/../etc", "..", "/a\\b", "/a\0b"])("rejects %j", (root) => {
    expect(() => normaliseRoot(root)).toThrow(UnsafePathError);
  });
});

describe("destinationPath", () => {
  it("joins segments below the normalised root", () => {
    expect(destinationPath("AlignersFactory/", "2024-05", "order-17", "upper.stl")).toBe("/AlignersFactory/2024-05/order-17/upper.stl");
  });

  it("accepts segments holding several parts", () => {
    expect(destinationPath("/AlignersFactory", "2024/05", "upper.stl")).toBe("/AlignersFactory/2024/05/upper.stl");
  });

  it("works below the filesystem root", () => {
    expect(destinationPath("/", "a", "b.stl")).toBe("/a/b.stl");
    expect(destinationPath("", "a")).toBe("/a");
  });

  it("returns the root itself without segments", () => {
    expect(destinationPath("/AlignersFactory/")).toBe("/AlignersFactory");
  });

  it.each([[""], [".."], ["a/../b"], ["a//b"], ["a/"], ["/a"], ["."], ["a\\b"]])("rejects segment %j", (segment) => {
    expect(() => destinationPath("/AlignersFactory", segment)).toThrow(UnsafePathError);
  });

  it("rejects a root with ..", () => {
    expect(() => destinationPath("/AlignersFactory/../etc", "passwd")).toThrow(UnsafePathError);
  });
});

describe("parentOf / baseNameOf", () => {
  it("splits absolute paths", () => {
    expect(parentOf("/a/b/c.stl")).toBe("/a/b");
    expect(parentOf("/c.stl")).toBe("/");
    expect(baseNameOf("/a/b/c.stl")).toBe("c.stl");
  });
});

describe("assertRemotePath", () => {
  it.each(["/", "/a", "/a/b.stl", "/a/b/"])("accepts %j", (remotePath) => {
    expect(() => assertRemotePath(remotePath)).not.toThrow();
  });

  it.each(["", "a/b", "/a/../b", "/a//b", "/a/./b", "/a\\b"])("rejects %j", (remotePath) => {
    expect(() => assertRemotePath(remotePath)).toThrow(UnsafePathError);
  });
});

describe("temporaryUploadPath", () => {
  it("is a hidden sibling of the final file", () => {
    expect(temporaryUploadPath("/a/b/upper.stl", "x1")).toBe("/a/b/.upper.stl.x1.part");
    expect(temporaryUploadPath("/upper.stl", "x1")).toBe("/.upper.stl.x1.part");
  });
});

describe("normaliseDestination", () => {
  it.each([
    ["/AlignersFactory", "/AlignersFactory/ab12/ab12_1/matrix", "/AlignersFactory/ab12/ab12_1/matrix"],
    ["/AlignersFactory", "/AlignersFactory/ab12/ab12_1/matrix/", "/AlignersFactory/ab12/ab12_1/matrix"],
    ["/AlignersFactory/", "AlignersFactory//ab12/aligners", "/AlignersFactory/ab12/aligners"],
    ["/AlignersFactory", "ab12/ab12_1/retainer", "/AlignersFactory/ab12/ab12_1/retainer"],
    ["/AlignersFactory", "/Other/ab12", "/AlignersFactory/Other/ab12"],
    ["/AlignersFactory", "/AlignersFactoryX/ab12", "/AlignersFactory/AlignersFactoryX/ab12"],
    ["/AlignersFactory", "/", "/AlignersFactory"],
    ["/AlignersFactory", "/AlignersFactory", "/AlignersFactory"],
    ["/", "/ab12/x", "/ab12/x"],
  ])("root %j, %j → %j", (root, destination, expected) => {
    expect(normaliseDestination(root, destination)).toBe(expected);
  });

  it.each(["/AlignersFactory/../etc", "a\\b", "/a/\0"])("rejects %j", (destination) => {
    expect(() => normaliseDestination("/AlignersFactory", destination)).toThrow(UnsafePathError);
  });
});

describe("safeRemoteFileName", () => {
  it.each([
    ["upper.stl", "upper.stl"],
    ["Шаг 01.STL", "Shag_01.STL"],
    ["../../etc/passwd", "passwd"],
    ["C:\\scans\\lower jaw.stl", "lower_jaw.stl"],
    [".hidden.stl", "hidden.stl"],
    ["", "file"],
    ["résumé.pdf", "resume.pdf"],
  ])("%j → %j", (name, expected) => {
    expect(safeRemoteFileName(name)).toBe(expected);
  });

  it("keeps the extension of a long name", () => {
    const name = safeRemoteFileName(`${"a".repeat(300)}.stl`);
    expect(name).toHaveLength(120);
    expect(name.endsWith(".stl")).toBe(true);
  });
});
