// Failed jobs against the simulator: retryable → resubmitted and linked both ways, within the chain
// cap; not retryable → dead-lettered; no original request → dead-lettered; and a resubmission that the
// platform accepted but Tally never recorded (a crash) is adopted on the next run, not sent twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { events, setupPipeline, type Pipeline } from "./jobs.test-util";
import { addEvent } from "./outcomes";
import { getPlatformClient } from "../platform/shared-client";
import { sendToPlatform } from "./requests";
import { submitJob } from "./submit";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline({ TALLY_RESUBMIT_MAX_CHAIN: "2" });
});
afterAll(() => p?.close());

const job = (id: string) => db().job.findUniqueOrThrow({ where: { id } });

describe("failed jobs", () => {
  it("retryable → resubmitted, linked both ways, and the new job is stored", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/sim-fail-retryable/1" });
    const old = await p.settleAndProcess("extract", jobId);
    expect(old).toMatchObject({ platformStatus: "failed", outcome: "resubmitted", errorRetryable: true });
    const newId = old.resubmittedAsId;
    if (!newId) throw new Error("no resubmission recorded");
    expect(await job(newId)).toMatchObject({
      resubmittedFromId: jobId,
      chainDepth: 1,
      origin: "submitted",
      request: old.request,
      outcome: "pending",
    });
    const resubmitted = await events(jobId, "resubmitted");
    expect(resubmitted.map((e) => JSON.parse(e.detail ?? "{}").phase)).toEqual(["intent", "accepted"]);

    expect(await p.settleAndProcess("extract", newId)).toMatchObject({ outcome: "stored", resultCount: 1 });
  });

  it("the chain is capped: after TALLY_RESUBMIT_MAX_CHAIN resubmissions the job is dead-lettered", async () => {
    await p.sim.control("/_sim/config", { failureRate: 1, retryableShare: 1 });
    try {
      let { jobId } = await submitJob({ kind: "extract", url: "https://example.com/always-fails" });
      const chain = [jobId];
      for (;;) {
        const j = await p.settleAndProcess("extract", jobId);
        if (!j.resubmittedAsId) break;
        jobId = j.resubmittedAsId;
        chain.push(jobId);
      }
      expect(chain).toHaveLength(3);
      const last = await job(jobId);
      expect(last).toMatchObject({ chainDepth: 2, outcome: "dead_lettered" });
      const dl = await db().deadLetter.findFirstOrThrow({ where: { jobId } });
      expect(dl).toMatchObject({ errorCode: "RESUBMIT_CHAIN_CAP", kind: "process_job", state: "open" });
    } finally {
      await p.sim.control("/_sim/config", { failureRate: 0 });
    }
  });

  it("not retryable → dead_lettered with the platform's error", async () => {
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://example.com/sim-fail/1"] });
    const j = await p.settleAndProcess("batch", jobId);
    expect(j).toMatchObject({ outcome: "dead_lettered", errorRetryable: false, resubmittedAsId: null });
    const dl = await db().deadLetter.findFirstOrThrow({ where: { jobId } });
    expect(dl.errorCode).toBe(j.errorCode);
    expect(await db().queueItem.findFirstOrThrow({ where: { jobId } })).toMatchObject({
      state: "done",
      dedupeKey: null,
    });
  });

  it("retryable but submitted elsewhere (no original request) → dead-lettered with that reason", async () => {
    const accepted = await p.client.submitExtract({ url: "https://example.com/sim-fail-retryable/foreign" });
    const j = await p.settleAndProcess("extract", accepted.job_id);
    expect(j).toMatchObject({ outcome: "dead_lettered", request: null });
    const dl = await db().deadLetter.findFirstOrThrow({ where: { jobId: accepted.job_id } });
    expect(dl.errorCode).toBe("NO_ORIGINAL_REQUEST");
    expect(dl.errorMessage).toContain("no original request");
  });

  it("a crash after the platform accepted the resubmission: the rerun adopts that job instead of submitting again", async () => {
    const url = "https://example.com/sim-fail-retryable/crash";
    const { jobId } = await submitJob({ kind: "extract", url });
    await p.waitSettled("extract", jobId);
    // What the dying run had done: recorded its intent, and the platform accepted the POST.
    await addEvent(db(), jobId, "resubmitted", { phase: "intent" });
    const orphan = await sendToPlatform(getPlatformClient(), { kind: "extract", url });
    const before = Object.keys(p.sim.sim.state().perJob).length;

    await p.enqueueJob(jobId, "extract");
    await p.drain();
    expect(await job(jobId)).toMatchObject({ outcome: "resubmitted", resubmittedAsId: orphan.jobId });
    expect(Object.keys(p.sim.sim.state().perJob).length).toBe(before);
    const accepted = (await events(jobId, "resubmitted")).map((e) => JSON.parse(e.detail ?? "{}"));
    expect(accepted.at(-1)).toMatchObject({
      phase: "accepted",
      newJobId: orphan.jobId,
      how: expect.stringContaining("adopted"),
    });
  });
});
