// Every feature on PostgreSQL: Tally's server in demo mode (its simulator, webhooks, worker, safety
// nets) on a PostgreSQL database stores, resubmits and dead-letters jobs; the operations a button starts
// succeed; every page, signed in, shows its heading and what the database holds (a job's id and URL, the
// subscription's URL, the run just started, the admin's email); and every GET route of the JSON API
// answers without a server error. A page that throws while rendering still answers 200 (Next has sent
// the shell and streams the error into it), so a page check must read what the page shows: the last
// test breaks a table under a page and proves the check catches it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { cookieOf, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { pages, routes } from "./routes";
import { openSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
let cookie: string;
const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
const runIds: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
  tally = await startTally({
    DATABASE_URL: t.url,
    TALLY_DEMO_TRAFFIC: "on",
    TALLY_DEMO_JOBS_PER_MINUTE: "120",
    TALLY_SIM_PORT: "0",
  });
  await waitFor("jobs stored", async () => (await db().job.count({ where: { outcome: "stored" } })) >= 5, 60_000);
  cookie = cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD }));
  // A run of three URLs, so the run pages have one to show.
  const created = await fetch(`${tally.url}/api/runs`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      name: "pg-page-check",
      urls: ["https://example.com/a", "https://example.com/b", "https://example.com/c"],
    }),
  });
  if (created.status !== 201) throw new Error(`POST /api/runs answered ${created.status}: ${await created.text()}`);
  // A collection, so the collection pages have one to show.
  const collection = await fetch(`${tally.url}/api/collections`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      name: "pg-collection-check",
      urls: ["https://example.com/c/1", "https://example.com/c/2"],
      schedule: "0 2 * * *",
      timezone: "Asia/Jakarta",
    }),
  });
  if (collection.status !== 201)
    throw new Error(`POST /api/collections answered ${collection.status}: ${await collection.text()}`);
}, 90_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Shows = { path: string; heading: string; texts: string[] };

/** What each page (as test/routes.ts finds it, dynamic segments as x1) must show, from the database. */
async function whatPagesShow(): Promise<Record<string, Shows>> {
  const newest = await db().job.findFirst({ where: { outcome: "stored" }, orderBy: { createdAt: "desc" } });
  const subscription = await db().subscription.findFirst({ where: { isActive: true } });
  const admin = await db().user.findFirst({ where: { role: "admin" } });
  const run = await db().operationRun.findFirst({ where: { id: { in: runIds } } });
  const urlRun = await db().run.findFirst({ where: { name: "pg-page-check" } });
  const collection = await db().collection.findFirst({ where: { name: "pg-collection-check" } });
  if (!newest?.url || !subscription || !admin || !run || !urlRun || !collection)
    throw new Error("the demo run left no job, subscription, admin, operation or run");
  const page = (path: string, heading: string, ...texts: string[]): Shows => ({ path, heading, texts });
  return {
    "/": page("/", "Overview"),
    "/alerts": page("/alerts", "Alerts"),
    "/budget": page("/budget", "API budget"),
    "/collections": page("/collections", "Collections", collection.name, "Every day at 02:00 (Asia/Jakarta)"),
    "/collections/x1": page(`/collections/${collection.id}`, collection.name, "https://example.com/c/2"),
    "/collections/new": page("/collections/new", "New collection"),
    "/dead-letters": page("/dead-letters", "Dead letters"),
    "/deliveries": page("/deliveries", "Deliveries"),
    "/jobs": page("/jobs", "Jobs", newest.id),
    "/jobs/new": page("/jobs/new", "New job"),
    "/jobs/x1": page(`/jobs/${encodeURIComponent(newest.id)}`, "Job", newest.id, newest.url),
    "/operations": page("/operations", "Operations", run.id),
    "/operations/x1": page(
      `/operations/${run.id}`,
      run.kind === "reconcile" ? "Reconciliation" : "Replay of failed deliveries",
      run.id,
    ),
    "/outbound": page("/outbound", "Outbound"),
    "/runs": page("/runs", "Runs", urlRun.name),
    "/runs/new": page("/runs/new", "New run"),
    "/runs/x1": page(`/runs/${urlRun.id}`, urlRun.name, urlRun.id),
    // Not a collection run: the page says so under its heading.
    "/runs/x1/diff": page(`/runs/${urlRun.id}/diff?url=https://example.com/a`, "What changed", "not a collection run"),
    "/settings": page("/settings", "Settings"),
    "/settings/tokens": page("/settings/tokens", "API tokens"),
    "/settings/users": page("/settings/users", "Users", admin.email),
    "/subscriptions": page("/subscriptions", "Webhooks & secrets", subscription.url),
  };
}

/** What is wrong with a page as the operator would see it; empty when it shows its heading and data. */
async function pageProblems({ path, heading, texts }: Shows): Promise<string[]> {
  const res = await fetch(tally.url + path, { headers: { cookie }, redirect: "manual" });
  const html = await res.text();
  const problems: string[] = [];
  if (res.status !== 200) problems.push(`${path} answered ${res.status}`);
  if (!new RegExp(`<h1[^>]*>${escapeHtml(heading).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</h1>`).test(html))
    problems.push(`${path} lacks its heading "${heading}"`);
  for (const text of texts) if (!html.includes(escapeHtml(text))) problems.push(`${path} does not show ${text}`);
  if (html.includes("could not be loaded")) problems.push(`${path} shows its error boundary`);
  return problems;
}

describe("Tally on PostgreSQL", () => {
  it("runs the pipeline: jobs stored with their results, every outcome recorded once", async () => {
    const stored = await db().job.findMany({ where: { outcome: "stored" }, select: { id: true, resultCount: true } });
    expect(stored.length).toBeGreaterThanOrEqual(5);
    for (const j of stored) expect(await db().result.count({ where: { jobId: j.id } })).toBe(j.resultCount);
    expect(await db().receipt.count()).toBeGreaterThan(0);
  });

  // Each run may take up to a minute on a busy machine (the wait below), so the test gets more than 30 s.
  it("reconciliation and replay started from the API succeed", { timeout: 150_000 }, async () => {
    for (const path of ["/api/operations/reconcile", "/api/operations/replay"]) {
      const res = await fetch(tally.url + path, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(202);
      const { runId } = (await res.json()) as { runId: string };
      runIds.push(runId);
      await waitFor(
        `${path} finished`,
        async () => (await db().operationRun.findUnique({ where: { id: runId } }))?.state !== "running",
        60_000,
      );
      expect(await db().operationRun.findUnique({ where: { id: runId } })).toMatchObject({ state: "succeeded" });
    }
  });

  it("every page, signed in, shows its heading and what the database holds", async () => {
    const expected = await whatPagesShow();
    const found = pages().filter((p) => p !== "/login");
    expect(found.length).toBeGreaterThan(10);
    // A page added later needs a line in whatPagesShow(): this fails until it has one.
    expect(Object.keys(expected).sort()).toEqual([...found].sort());
    const problems = (await Promise.all(found.map((p) => pageProblems(expected[p])))).flat();
    expect(problems).toEqual([]);
  });

  it("the sign-in page renders", async () => {
    const res = await fetch(`${tally.url}/login`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Sign in with your account.");
  });

  it.each(routes().filter((r) => r.method === "GET" && r.url.startsWith("/api/")))(
    "$method $url answers without a server error",
    async ({ url }) => {
      const res = await fetch(tally.url + url, { headers: auth });
      expect(res.status, await res.clone().text()).toBeLessThan(500);
    },
  );

  it("a page whose query fails is caught by the page check, though it still answers 200", async () => {
    const subscriptions = (await whatPagesShow())["/subscriptions"];
    expect(await pageProblems(subscriptions)).toEqual([]);
    const sql = await openSql(t.url);
    try {
      await sql.run('ALTER TABLE "Subscription" RENAME TO "SubscriptionHidden"');
      const res = await fetch(tally.url + "/subscriptions", { headers: { cookie }, redirect: "manual" });
      await res.text();
      expect(res.status).toBe(200); // why `status < 500` proved nothing
      expect(await pageProblems(subscriptions)).toEqual(
        expect.arrayContaining(['/subscriptions lacks its heading "Webhooks & secrets"']),
      );
    } finally {
      await sql.run('ALTER TABLE "SubscriptionHidden" RENAME TO "Subscription"');
      await sql.close();
    }
  });
});
