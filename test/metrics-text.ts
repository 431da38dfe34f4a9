// Reading Prometheus text-format answers in tests.

/** The sum of a series over every `process` (and any label not named), 0 when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** The `process` label values an answer carries (one per process that answered: exactly one). */
export function processLabels(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(?:[^}]*,)?process="([^"]+)"/g)].map((m) => m[1]))];
}
