// The browser parses every answer with its contract's schema (lib/browser/parsed.ts), so a schema
// stricter than what the server sends would break a page at run time. Over real HTTP (run
// `npm run build` first): each answer the dashboard's hooks read parses with the schema they use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { alertsViewSchema } from "@/lib/alerts/contracts";
import { actionSummarySchema, deadLetterPageSchema } from "@/lib/dead-letters/contracts";
import { overviewSchema } from "@/lib/overview/contracts";
import { throughputSchema } from "@/lib/overview/throughput-contracts";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let tally: TallyServer;
beforeAll(async () => {
  tally = await startTally();
});
afterAll(async () => {
  await tally?.stop();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

async function answer(path: string, init: RequestInit = {}) {
  const res = await fetch(tally.url + path, { ...init, headers: { ...auth, ...init.headers } });
  return { status: res.status, body: (await res.json()) as unknown };
}

function parses(schema: z.ZodType, body: unknown) {
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? [], JSON.stringify(body).slice(0, 500)).toEqual([]);
  return parsed.data;
}

describe("answers the dashboard parses", () => {
  it.each([
    ["/api/overview", overviewSchema],
    ["/api/overview/throughput?range=hour", throughputSchema],
    ["/api/overview/throughput?range=day", throughputSchema],
    ["/api/alerts", alertsViewSchema],
    ["/api/dead-letters", deadLetterPageSchema],
    ["/api/dead-letters?state=all", deadLetterPageSchema],
  ])("GET %s", async (path, schema) => {
    const r = await answer(path);
    expect(r.status).toBe(200);
    parses(schema, r.body);
  });

  it("the overview's ledger names every outcome", async () => {
    const o = overviewSchema.parse((await answer("/api/overview")).body);
    expect(Object.keys(o.ledger.byOutcome).sort()).toEqual(
      ["cancelled", "dead_lettered", "pending", "resubmitted", "stored"].sort(),
    );
  });

  it.each([
    ["retry", {}],
    ["discard", { reason: "not ours" }],
  ])("POST /api/dead-letters/%s", async (action, extra) => {
    const r = await answer(`/api/dead-letters/${action}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: [424242], ...extra }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(parses(actionSummarySchema, r.body)).toMatchObject({ action, requested: 1, changed: 0 });
  });
});
