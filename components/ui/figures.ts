// Number and duration formatting with a fixed locale, so server and browser render the same text
// (a locale-dependent figure would differ between the two and break hydration).

const count = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return count.format(n);
}

/** 1.5 GB, 320 MB, 12 kB: decimal units, as storage is billed. */
export function formatBytes(n: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${formatCount(n)} bytes` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function formatPercent(ratio: number | null, digits = 1): string {
  return ratio === null ? "—" : `${(ratio * 100).toFixed(digits)} %`;
}

/** 42 s, 7 min, 3.5 h, 2.1 d: the coarsest unit that still says something. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  const s = ms / 1000;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
}
