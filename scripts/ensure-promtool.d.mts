export function findPromtool(): string | null;
export function ensurePromtool(): { path: string; how: string } | null;
