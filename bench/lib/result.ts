/**
 * The line every benchmark prints last, so `bench/run-all.mts` builds its table from real output:
 *
 *   BENCH_RESULT {"bench":"upload-s3","figures":[{"name":"…","figure":"…","target":"…","met":true}]}
 *
 * `met` is null for a figure that is reported without a target.
 */
export const RESULT_PREFIX = "BENCH_RESULT ";

export interface Figure {
  name: string;
  figure: string;
  target: string;
  met: boolean | null;
  /** The number behind `figure`, for tools; unit in `figure`. */
  value?: number;
}

export interface BenchResult {
  bench: string;
  figures: Figure[];
  /** Load average (1, 5, 15 min) when the benchmark ended. */
  loadavg?: number[];
}

export function printResult(result: BenchResult): void {
  console.log(RESULT_PREFIX + JSON.stringify(result));
}

/** Finds the result lines in a benchmark's output (the last one of each bench wins). */
export function parseResults(output: string): BenchResult[] {
  const found = new Map<string, BenchResult>();
  for (const line of output.split("\n")) {
    if (!line.startsWith(RESULT_PREFIX)) continue;
    const result = JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult;
    found.set(result.bench, result);
  }
  return [...found.values()];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
