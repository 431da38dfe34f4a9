import { createHash } from "node:crypto";
import { DEFAULT_CODEC, openBodyStore } from "@/lib/bodies";
import { pageContent } from "@/lib/simulator";

// Page bodies of realistic size for seed:large's results (issue 40): a pool of distinct simulator pages
// (the bodyBytes knob: markdown of 20–200 KB), which the sampled results name by key, as the store path
// leaves them (text NULL, key, codec, size). The keys are known before the rows are written (a body's
// key is the SHA-256 of its bytes); the objects are put through the body store before the database is
// renamed into place, so the finished database never names a body that is not there.

export type SeedPage = { key: string; codec: string; size: number; markdown: string };

export const SEED_BODY_BYTES: [number, number] = [20_000, 200_000];

/** `n` distinct pages, the same for a given seed. */
export function seedPages(n: number, seed: number): SeedPage[] {
  return Array.from({ length: n }, (_, i) => {
    const { markdown } = pageContent({
      seed,
      url: `https://seed.example/catalogue/page-${i}`,
      formats: ["markdown"],
      extractLinks: false,
      hostileShare: 0,
      bodyBytes: SEED_BODY_BYTES,
    });
    const text = markdown ?? "";
    const bytes = Buffer.from(text, "utf8");
    return {
      key: createHash("sha256").update(bytes).digest("hex"),
      codec: DEFAULT_CODEC,
      size: bytes.length,
      markdown: text,
    };
  });
}

/** Puts the pool into the store at `url` (TALLY_BODY_STORE form); its objects and bytes as stored. */
export async function keepSeedPages(pages: SeedPage[], url: string): Promise<{ objects: number; storedBytes: number }> {
  const store = openBodyStore(url);
  try {
    await store.check();
    let storedBytes = 0;
    for (const p of pages) {
      const d = await store.put(Buffer.from(p.markdown, "utf8"));
      if (d.key !== p.key || d.codec !== p.codec)
        throw new Error(`body store ${url}: put ${d.key} (${d.codec}), expected ${p.key} (${p.codec})`);
      storedBytes += d.storedSize;
    }
    return { objects: pages.length, storedBytes };
  } finally {
    await store.close();
  }
}
