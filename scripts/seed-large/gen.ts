// Small generators for the large seed: a seeded PRNG, ids that look random but are computed from a
// row number (so other tables can point at job N without keeping a million ids in memory), weighted
// picks, and Prisma's SQLite date text.
import type Database from "better-sqlite3";
import { mulberry32 } from "@/lib/simulator";
import { sqliteDate } from "@/lib/webhooks";

export const DAY = 86_400_000;

/** The simulator's mulberry32: a stable shape, not cryptographic quality. */
export const rng = mulberry32;

// murmur3's finaliser: a bijection on 32-bit integers, so distinct row numbers give distinct ids.
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex = (n: number, width: number) =>
  n
    .toString(16)
    .padStart(8, "0")
    .slice(8 - width);

/**
 * A UUID-shaped id for row `i` of a `space` (jobs, deliveries…). The first word is a bijection of i,
 * so ids never collide within a run; the run's salts make a second run into the same file differ.
 */
export function idFor(salt: [number, number], space: number, i: number): string {
  const a = fmix((salt[0] ^ Math.imul(i + 1, 0x9e3779b1) ^ space) >>> 0);
  const b = fmix(a ^ salt[1]);
  const c = fmix(b ^ 0x68e31da4);
  const d = fmix(c ^ 0xb5297a4d);
  return `${hex(a, 8)}-${hex(b, 4)}-4${hex(b >>> 16, 3)}-${"89ab"[c & 3]}${hex(c >>> 8, 3)}-${hex(d, 8)}${hex(c >>> 16, 4)}`;
}

/** Picks a key by weight: weighted([["a", 9], ["b", 1]]) returns "a" nine times in ten. */
export function weighted<K extends string>(entries: ReadonlyArray<readonly [K, number]>): (r: number) => K {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  return (r) => {
    let x = r * total;
    for (const [k, w] of entries) {
      if ((x -= w) < 0) return k;
    }
    return entries[entries.length - 1][0];
  };
}

export const at = (ms: number): string => sqliteDate(new Date(ms));

const DOMAINS = [
  "shop.acme-outdoor.com",
  "www.northwind-traders.io",
  "blog.brightpath.dev",
  "news.citywire.example.org",
  "docs.nimbus-cloud.com",
  "www.greenleaf-market.co.uk",
  "store.pixelforge.gg",
  "www.harbor-realty.com",
  "jobs.meridian-health.org",
  "www.tasteofrome.it",
  "catalog.voltline-electric.de",
  "www.sunset-travel.es",
  "help.orbitbank.com",
  "www.fieldnotes-review.net",
  "shop.kettle-and-crumb.com",
];
const SECTIONS = [
  "products",
  "p",
  "blog/2026",
  "listing",
  "category/sale",
  "article",
  "item",
  "docs/guide",
  "reviews",
  "search?q=boots&page=",
];
const WORDS = [
  "trail-runner",
  "oak-desk",
  "wireless-earbuds",
  "winter-jacket",
  "espresso-machine",
  "solar-panel-kit",
  "yoga-mat",
  "city-apartment",
  "pricing-update",
  "release-notes",
  "garden-hose",
  "led-strip",
  "road-bike",
  "leather-wallet",
  "rain-boots",
];

/** A believable target URL for job n (same n, same URL, so searching by URL finds it). */
export function urlFor(n: number, r: () => number): string {
  const domain = DOMAINS[n % DOMAINS.length];
  const section = SECTIONS[Math.floor(r() * SECTIONS.length)];
  const word = WORDS[Math.floor(r() * WORDS.length)];
  return section.endsWith("=") ? `https://${domain}/${section}${n % 40}` : `https://${domain}/${section}/${word}-${n}`;
}

/** Runs `rows` inserts in transactions of `chunk`; returns the count written. */
export function inChunks(
  db: Database.Database,
  rows: number,
  chunk: number,
  write: (i: number) => number | void,
): number {
  let written = 0;
  const tx = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) written += write(i) ?? 1;
  });
  for (let from = 0; from < rows; from += chunk) tx(from, Math.min(rows, from + chunk));
  return written;
}
