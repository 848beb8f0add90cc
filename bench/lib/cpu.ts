import fs from "node:fs";

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds of a process and its worker processes (node:cluster forks them as its children), from /proc. */
export function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return own + children.reduce((sum, child) => sum + (fs.existsSync(`/proc/${child}`) ? cpuSecondsOf(child) : 0), 0);
}
