// The content knobs (issue 39) over real HTTP: block pages sticky per host, residential getting through
// for a share of them, empty shells that render_js fixes, soft 404s, cut pages; tokens per the knobs;
// GET /_sim/content telling what was served and why. Each page kind is checked against the detector.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { classify } from "@/lib/content-checks";
import { baseConfig } from "./config";
import { API_KEY, startSim, waitFor } from "./test-harness.test-util";

let h: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  h = await startSim();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({ ...baseConfig, seed: 7, jobDurationMs: [10, 30], hostileShare: 0 });
});

const api = async (path: string, body?: unknown) => {
  const res = await fetch(h.url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "X-Api-Key": API_KEY, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};

type Item = {
  url: string;
  status: string;
  data: { markdown: string | null; html: string | null } | null;
  metadata: { http_status: number; tokens_charged: number };
};

async function batch(urls: string[], options: Record<string, unknown> = {}) {
  const { job_id } = (await api("/v1/batch", { urls, formats: ["html", "markdown"], ...options })) as {
    job_id: string;
  };
  await waitFor("batch settled", async () => (await api(`/v1/batch/${job_id}`)).status === "completed");
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const doc = (await api(`/v1/batch/${job_id}?page=${page}&page_size=50`)) as {
      results: Item[];
      page_count: number;
      token_summary: { tokens_charged_total: number };
    };
    items.push(...doc.results);
    if (page >= doc.page_count)
      return { items, charged: (await api(`/v1/batch/${job_id}`)) as Record<string, unknown> };
  }
}

type Served = { kind: string; why: string; style?: string };
const content = async (url: string) =>
  (await api(`/_sim/content?url=${encodeURIComponent(url)}`)) as {
    served: number;
    last?: Served & { options: Record<string, unknown> };
    wouldServe: Record<string, Served>;
  };

const urlsOver = (hosts: number, perHost: number) =>
  Array.from({ length: hosts * perHost }, (_, i) => `https://h${i % hosts}.example/p/${i}`);

describe("content knobs", () => {
  it("defaults serve every page as it is (existing behaviour)", async () => {
    const { items } = await batch(urlsOver(5, 4));
    for (const i of items) {
      expect(i.status).toBe("completed");
      expect(classify({ html: i.data?.html, status: i.metadata.http_status }).verdict).toBe("ok");
      expect(i.metadata.tokens_charged).toBe(1);
    }
    expect((await content(items[0].url)).last?.kind).toBe("good");
  });

  it("blockPageRate is sticky per host; residential gets through on residentialUnblockShare of them; the detector sees each block page", async () => {
    h.sim.setConfig({ blockPageRate: 0.5, residentialUnblockShare: 0.5 });
    const urls = urlsOver(40, 3);
    const plain = await batch(urls);
    const blockedHosts = new Set<string>();
    const goodHosts = new Set<string>();
    for (const i of plain.items) {
      const host = new URL(i.url).hostname;
      const c = await content(i.url);
      expect(c.last?.options).toMatchObject({ renderJs: false, proxyType: null });
      expect(i.status).toBe("completed");
      expect(i.metadata.http_status).toBe(200);
      const verdict = classify({ html: i.data?.html, status: 200 }).verdict;
      if (c.last?.kind === "block") {
        blockedHosts.add(host);
        expect(verdict, i.url).toBe("blocked");
        expect(classify({ markdown: i.data?.markdown, status: 200 }).verdict, `${i.url} markdown`).toBe("blocked");
      } else {
        goodHosts.add(host);
        expect(verdict, i.url).toBe("ok");
      }
    }
    // Sticky: no host is both; and the share is near the rate.
    expect([...blockedHosts].filter((x) => goodHosts.has(x))).toEqual([]);
    expect(blockedHosts.size).toBeGreaterThan(10);
    expect(blockedHosts.size).toBeLessThan(30);

    const residential = await batch(urls, { proxy: { type: "residential" } });
    let through = 0;
    for (const i of residential.items) {
      const host = new URL(i.url).hostname;
      const c = await content(i.url);
      expect(c.last?.options).toMatchObject({ proxyType: "residential" });
      if (goodHosts.has(host)) expect(c.last?.kind).toBe("good");
      if (blockedHosts.has(host) && c.last?.kind === "good") through++;
      // /_sim/content agrees with what was served, per option set.
      expect(c.wouldServe.residential.kind).toBe(c.last?.kind);
      expect(c.wouldServe.plain.kind).toBe(blockedHosts.has(host) ? "block" : "good");
    }
    expect(through).toBeGreaterThan(0);
    expect(through).toBeLessThan([...blockedHosts].length * 3);
    // render_js alone never gets through a block.
    const rendered = await batch(
      urls.filter((u) => blockedHosts.has(new URL(u).hostname)),
      { render_js: true },
    );
    for (const i of rendered.items) expect((await content(i.url)).last?.kind).toBe("block");
  });

  it("emptyShellRate needs render_js; softNotFoundRate answers not found whatever the options; truncatedRate needs wait_config", async () => {
    h.sim.setConfig({ emptyShellRate: 0.3, softNotFoundRate: 0.1, truncatedRate: 0.2 });
    const urls = urlsOver(10, 10);
    const plain = await batch(urls);
    const kinds: Record<string, number> = {};
    let mdCut = 0;
    for (const i of plain.items) {
      const c = await content(i.url);
      const kind = c.last?.kind ?? "?";
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const verdict = classify({ html: i.data?.html, status: 200 }).verdict;
      expect(verdict, `${kind} ${i.url}`).toBe(
        { good: "ok", empty_shell: "blocked", soft_404: "not_found", truncated: "transient" }[kind],
      );
      // The same item's markdown alone (issue 39: truncation judged on markdown too): a good page stays ok,
      // and a cut one is found unless it was cut between two blocks (counted below).
      const md = classify({ markdown: i.data?.markdown, status: 200 }).verdict;
      if (kind === "good") expect(md, `markdown of ${i.url}`).toBe("ok");
      if (kind === "truncated" && md === "transient") mdCut++;
      expect(c.wouldServe.render_js.kind).toBe(kind === "empty_shell" ? "good" : kind);
      expect(c.wouldServe.render_js_wait.kind).toBe(kind === "soft_404" ? "soft_404" : "good");
    }
    expect(kinds.empty_shell).toBeGreaterThan(10);
    expect(kinds.soft_404).toBeGreaterThan(2);
    expect(kinds.truncated).toBeGreaterThan(5);
    expect(mdCut).toBeGreaterThanOrEqual(Math.ceil((kinds.truncated ?? 0) * 0.6));
    const waited = await batch(urls, { render_js: true, wait_config: { wait_until: "load" } });
    for (const i of waited.items) {
      const kind = (await content(i.url)).last?.kind;
      expect(kind).toBe((await content(i.url)).wouldServe.plain.kind === "soft_404" ? "soft_404" : "good");
    }
  });

  it("charges pageTokens per plain page and renderTokens per rendered one, in items and the job's total", async () => {
    h.sim.setConfig({ pageTokens: 1, renderTokens: 3 });
    const urls = urlsOver(2, 3);
    const plain = await batch(urls);
    expect(plain.items.map((i) => i.metadata.tokens_charged)).toEqual([1, 1, 1, 1, 1, 1]);
    const rendered = await batch(urls, { render_js: true });
    expect(rendered.items.map((i) => i.metadata.tokens_charged)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(rendered.charged).toMatchObject({ token_summary: { tokens_charged_total: 18 } });
  });

  it("is deterministic per seed: the same knobs and seed serve the same kinds; another seed differs", async () => {
    const knobs = { blockPageRate: 0.3, emptyShellRate: 0.2, softNotFoundRate: 0.1, residentialUnblockShare: 0.5 };
    const urls = urlsOver(20, 2);
    const read = async () => Promise.all(urls.map(async (u) => JSON.stringify((await content(u)).wouldServe)));
    h.sim.setConfig(knobs);
    const first = await read();
    h.sim.reset();
    h.sim.setConfig({ ...baseConfig, seed: 7, ...knobs });
    expect(await read()).toEqual(first);
    h.sim.setConfig({ seed: 8 });
    expect(await read()).not.toEqual(first);
  });

  it("rejects a knob out of range", async () => {
    const res = await fetch(h.url + "/_sim/config", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ blockPageRate: 1.5 }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("blockPageRate");
  });
});
