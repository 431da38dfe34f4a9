// The job page /jobs/{id} over real HTTP (the built server, `npm run build` first), signed in as an
// operator: a known job answers 200, an unknown or malformed id a real 404 status (not a 200 whose
// stream carries the not-found page) with the page's own message. Runs on SQLite and, through
// vitest.postgres.config.mts, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { cookieOf, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
let cookie: string;

beforeAll(async () => {
  t = await createTestDb();
  await db().job.create({
    data: {
      id: "page-status-known",
      kind: "extract",
      platformStatus: "completed",
      outcome: "stored",
      url: "https://shop.example/known",
    },
  });
  tally = await startTally({}, t.url);
  cookie = cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD }));
}, 60_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const page = async (path: string) => {
  const res = await fetch(tally.url + path, { headers: { cookie }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
};

describe("the job page", () => {
  it("answers 200 for a known job and a real 404 for an unknown or malformed id", async () => {
    const known = await page("/jobs/page-status-known");
    expect(known.status).toBe(200);
    expect(known.html).toContain("page-status-known");
    // In the dashboard's frame: its navigation around the page.
    expect(known.html).toContain('aria-label="Sections"');
    for (const id of ["no-such-job", encodeURIComponent(" "), "x".repeat(201)]) {
      const r = await page(`/jobs/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.html, id).toContain("Tally knows no job with this id.");
    }
  });
});
