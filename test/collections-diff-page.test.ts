// The diff page /runs/{id}/diff?url=… over real HTTP (the built server, `npm run build` first), signed in:
// a hostile page (the simulator's <script>, <img onerror>, javascript: links) changed between two runs
// of a collection is shown as escaped text, never as live markup; a missing or unknown url, or an
// unknown or malformed run id, answers a real 404 status with the not-found page's message; invisible
// and bidirectional characters are marked escapes with a warning; a hostile pair of versions gives a
// diff that is cut and says so. Runs on
// SQLite and, through vitest.postgres.config.mts, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { cookieOf, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;
let cookie: string;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  tally = await startTally(
    {
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_API_RPS: "1000",
      TALLY_WORKER: "on",
      TALLY_DELIVERY_MODE: "polling",
      TALLY_POLL_INITIAL_MS: "100",
      TALLY_POLL_MAX_MS: "300",
    },
    t.url,
  );
  cookie = cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD }));
}, 60_000);
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

const bearer = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" };
const json = async (path: string, body?: unknown) => {
  const res = await fetch(tally.url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: bearer,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return z.record(z.string(), z.unknown()).parse(await res.json());
};
const page = async (path: string) => {
  const res = await fetch(tally.url + path, { headers: { cookie } });
  return { status: res.status, html: await res.text() };
};

/** Runs the collection now and waits until the run is completed and classified. */
async function runToEnd(collectionId: string): Promise<string> {
  const runId = z.string().parse((await json(`/api/collections/${collectionId}/run`, {})).runId);
  for (let i = 0; i < 300; i++) {
    const run = await json(`/api/runs/${runId}`);
    if (run.state === "completed" && run.changes) return runId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not complete and classify`);
}

const HOSTILE = "https://evil.example/hostile-offer";

describe("the diff page", () => {
  it("shows a changed hostile page as escaped text, and not found with a reason for a bad or unknown url", async () => {
    const c = z
      .string()
      .parse((await json("/api/collections", { name: "hostile", urls: [HOSTILE, "https://shop.example/calm"] })).id);
    await runToEnd(c);
    await sim.control("/_sim/config", { contentChangeRate: 1 });
    const second = await runToEnd(c);
    await sim.control("/_sim/config", { contentChangeRate: 0 });
    expect((await json(`/api/runs/${second}`)).changes).toEqual({ new: 0, changed: 2, unchanged: 0, gone: 0 });

    // By default the change with a few lines around it; the whole page (?all=1) shows every line.
    const changesOnly = await page(`/runs/${second}/diff?url=${encodeURIComponent(HOSTILE)}`);
    expect(changesOnly.status).toBe(200);
    expect(changesOnly.html).toContain('data-testid="diff-change"');
    expect(changesOnly.html).toContain("(revision 1)");
    const { status, html } = await page(`/runs/${second}/diff?url=${encodeURIComponent(HOSTILE)}&all=1`);
    expect(status).toBe(200);
    const diff = html.slice(html.indexOf('data-testid="diff"'));
    expect(diff.length).toBeGreaterThan(0);
    // The page's text, escaped: the attack is visible as characters...
    expect(diff).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(diff).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(diff).toContain("&lt;iframe src=&quot;javascript:alert(1)&quot;&gt;&lt;/iframe&gt;");
    expect(diff).toContain("(revision 1)");
    // A bidirectional override ("txt.exe" shown for "exe.txt") is a marked escape, not the character,
    // and the page warns that the diff holds such characters.
    expect(diff).toMatch(/data-invisible="">⟨U\+202E⟩<\/span>txt\.exe \(bidi override\)/);
    expect(diff).not.toContain("\u202E");
    expect(html).toMatch(
      /data-testid="diff-invisible">This diff holds (<!-- -->)?[1-9]\d*(<!-- -->)? invisible or bidi/,
    );
    expect(html).not.toContain('data-testid="diff-cut"');
    // ...and nowhere in the markup as a tag or a live attribute.
    expect(html).not.toMatch(/<script>alert/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<iframe[^>]*javascript:/i);
    expect(html).not.toMatch(/href="javascript:/i);

    // No url, a url the run does not have, a run that does not exist or cannot: a 404 status (the page
    // has no loading.tsx above it, so it knows before the first byte), with what to do.
    for (const path of [
      `/runs/${second}/diff`,
      `/runs/${second}/diff?url=`,
      `/runs/${second}/diff?url=${encodeURIComponent("https://nowhere.example/x")}`,
      `/runs/no-such-run/diff?url=${encodeURIComponent(HOSTILE)}`,
      `/runs/${"r".repeat(101)}/diff?url=${encodeURIComponent(HOSTILE)}`,
    ]) {
      const r = await page(path);
      expect(r.status, path).toBe(404);
      expect(r.html, path).toContain("No diff for this address");
      expect(r.html, path).not.toContain('data-testid="diff"');
    }

    // A hostile pair: 8,000 short lines a side, all different. The diff is cut, and the page says why.
    const calm = await db().urlChange.findFirstOrThrow({ where: { runId: second, url: "https://shop.example/calm" } });
    const lines = (a: string, b: string) => Array.from({ length: 8000 }, (_, i) => (i % 2 ? a : b)).join("\n");
    await db().result.update({ where: { id: calm.previousResultId ?? -1 }, data: { markdown: lines("a", "b") } });
    await db().result.update({ where: { id: calm.resultId ?? -1 }, data: { markdown: lines("c", "a") } });
    const cut = await page(`/runs/${second}/diff?url=${encodeURIComponent(calm.url)}`);
    expect(cut.status).toBe(200);
    expect(cut.html).toContain("This diff is cut.");
    const why = cut.html.slice(cut.html.indexOf('data-testid="diff-cut"'));
    expect(why).toContain("The versions differ in more than 1,000 lines, too many to align");
  }, 120_000);
});
