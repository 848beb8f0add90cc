/**
 * Reading what the metrics port serves (the Prometheus text format) and what alert rules name, for
 * the tests of the metrics and of `ops/alerts.yml` (ADR 073).
 */

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Every sample of an exposition, by metric name (`name_bucket`, `name_count` … as written). */
export function parseExposition(text: string): Map<string, Sample[]> {
  const samples = new Map<string, Sample[]>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    const list = samples.get(match[1]!) ?? [];
    list.push({ labels, value: Number(match[3]) });
    samples.set(match[1]!, list);
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels` (NaN when there is none). */
export function valueOf(samples: Map<string, Sample[]>, name: string, labels: Record<string, string> = {}): number {
  const found = (samples.get(name) ?? []).filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? Number.NaN;
}

/** The sum of every sample of `name` whose labels include `labels`. */
export function sumOf(samples: Map<string, Sample[]>, name: string, labels: Record<string, string> = {}): number {
  return (samples.get(name) ?? []).filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value)).reduce((sum, sample) => sum + sample.value, 0);
}

const PROMQL_WORDS = new Set(["and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "inf", "nan"]);

/**
 * The metric names a PromQL expression reads: label matchers, strings, durations and grouping
 * clauses are set aside; what is left that is neither a function (a name before "(") nor a keyword
 * is a metric.
 */
export function metricsOfExpression(expression: string): string[] {
  const stripped = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/(?<![a-zA-Z0-9_:])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, " ");
  const names = new Set<string>();
  for (const match of stripped.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (match[2]) continue; // a function
    if (PROMQL_WORDS.has(match[1]!.toLowerCase())) continue;
    names.add(match[1]!);
  }
  return [...names];
}
