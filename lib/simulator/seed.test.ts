import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collect } from "@/lib/platform/paginate";
import { baseConfig } from "./config";
import { createSimulator } from "./server";
import { startSim } from "./test-harness.test-util";

let h: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  h = await startSim();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({ ...baseConfig, seed: 42 });
});

describe("POST /_sim/seed", () => {
  it("creates settled jobs that the lists page through newest first, with no webhook and no timer", async () => {
    const before = Date.now();
    const res = await h.control("/_sim/seed", { count: 250, kind: "batch", status: "failed", ageSeconds: 7200 });
    expect(res.status).toBe(200);
    const body = res.body as { seeded: number; ids: string[] };
    expect(body.seeded).toBe(250);
    expect(new Set(body.ids).size).toBe(250);

    const listed = await collect(h.client().listBatchJobs());
    expect(listed.map((j) => j.job_id)).toEqual([...body.ids].reverse());
    expect(listed.every((j) => j.status === "failed")).toBe(true);
    expect(listed.every((j) => Date.parse(j.created_at) <= before - 7200_000)).toBe(true);

    const job = await h.client().getJob("batch", body.ids[0] ?? "");
    expect(job.status).toBe("failed");
    expect(job.error?.code).toEqual(expect.any(String));
    expect(h.sim.state().deliveries.total).toBe(0);
  });

  it("serves a seeded extraction's content, rendered the same on every read", async () => {
    const [id] = h.sim.seedJobs({ count: 1, kind: "extract", status: "completed" });
    const read = async () => (await h.client().getJob("extract", id ?? "")).raw;
    const first = await read();
    expect(first.status).toBe("completed");
    expect(JSON.stringify(first)).toContain("example.com");
    expect(await read()).toEqual(first);
  });

  it("keeps the retention limit and answers 400 with the reason for a bad body", async () => {
    h.sim.setConfig({ retainJobs: 100 });
    await h.control("/_sim/seed", { count: 300 });
    expect(h.sim.state().jobs.total).toBe(100);
    for (const bad of [{ count: 0 }, { count: 10, status: "processing" }, { count: 1, colour: "red" }]) {
      const res = await h.control("/_sim/seed", bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_REQUEST", message: expect.any(String) });
    }
  });

  it("does not exist outside test mode", async () => {
    const demo = createSimulator({ mode: "demo", apiKey: "k" });
    const running = await demo.listen(0);
    try {
      const res = await fetch(running.url + "/_sim/seed", {
        method: "POST",
        body: JSON.stringify({ count: 1 }),
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status).toBe(404);
      expect(() => demo.seedJobs({ count: 1 })).toThrow(/test mode/);
    } finally {
      await running.close();
    }
  });
});
