/**
 * Paths on the production file server (where an order's files go, ftp/ sends them) are POSIX and absolute ("/AlignersFactory/2024/order-17/upper.stl").
 * The root comes from configuration and is forgiven small slips (missing leading slash, trailing
 * slash, doubled slashes); segments come from our data, so anything odd in them is an error
 * rather than something to silently repair.
 */

export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafePathError";
  }
}

function assertNoForbiddenCharacters(value: string, what: string): void {
  if (value.includes("\\")) throw new UnsafePathError(`${what} ${JSON.stringify(value)} contains a backslash`);
  if (value.includes("\0")) throw new UnsafePathError(`${what} ${JSON.stringify(value)} contains a NUL byte`);
}

/** "AlignersFactory/" → "/AlignersFactory"; "" and "/" → "/". Throws on "..". */
export function normaliseRoot(root: string): string {
  assertNoForbiddenCharacters(root, "Root");
  const parts = root.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) throw new UnsafePathError(`Root ${JSON.stringify(root)} contains ".."`);
  return `/${parts.join("/")}`;
}

/**
 * The absolute path of `segments` below `root`. A segment may itself hold several parts
 * ("2024/05"), but no empty part, "." or "..": a path can never climb out of the root.
 */
export function destinationPath(root: string, ...segments: string[]): string {
  const parts: string[] = [];
  for (const segment of segments) {
    assertNoForbiddenCharacters(segment, "Path segment");
    for (const part of segment.split("/")) {
      if (part === "") throw new UnsafePathError(`Path segment ${JSON.stringify(segment)} has an empty part`);
      if (part === "." || part === "..") throw new UnsafePathError(`Path segment ${JSON.stringify(segment)} contains "${part}"`);
      parts.push(part);
    }
  }
  const base = normaliseRoot(root);
  if (parts.length === 0) return base;
  return base === "/" ? `/${parts.join("/")}` : `${base}/${parts.join("/")}`;
}
