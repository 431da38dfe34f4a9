import type { FetchOptions, Served } from "./page-kinds";
import { hashUnit } from "./rng";

// The knob contentChangeRate: each time the simulator serves a URL it has served before, its content
// differs from the last time with that probability (a draw stable per seed, URL and serving), so a
// collection's runs show changes on purpose. GET /_sim/content?url= tells a test which version it got.

/** At most this many URLs are remembered (oldest forgotten first): a long demo must not grow without bound. */
const MAX_URLS = 200_000;

/** `last`: what the latest serving answered (page-kinds.ts), with the options it was asked with. */
export type ContentServing = { served: number; version: number; last?: Served & { options: FetchOptions } };

export class ContentVersions {
  private readonly urls = new Map<string, ContentServing>();

  /** The content version of this serving of `url`. */
  serve(seed: number, url: string, rate: number): number {
    const last = this.urls.get(url);
    const served = (last?.served ?? 0) + 1;
    let version = last?.version ?? 0;
    if (last && rate > 0 && hashUnit(seed, `change:${url}:${served}`) < rate) version++;
    this.urls.delete(url);
    this.urls.set(url, { served, version });
    if (this.urls.size > MAX_URLS) {
      const oldest = this.urls.keys().next();
      if (!oldest.done) this.urls.delete(oldest.value);
    }
    return version;
  }

  /** Remembers what the latest serving of `url` answered (called after serve). */
  noteServed(url: string, served: Served, options: FetchOptions): void {
    const entry = this.urls.get(url);
    if (entry) entry.last = { ...served, options };
  }

  get(url: string): ContentServing {
    return this.urls.get(url) ?? { served: 0, version: 0 };
  }

  reset(): void {
    this.urls.clear();
  }
}
