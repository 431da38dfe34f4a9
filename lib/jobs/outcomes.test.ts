// tally_job_outcomes_total counts an outcome once it has committed, exactly once: a transaction that
// rolls back after setting the outcome (its caller retries) counts nothing, a second setter counts
// nothing, and a setter outside transaction() fails loudly instead of silently skipping the count.
// On both stores (lib/jobs/*.test.ts is in vitest.postgres.config.mts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, transaction } from "@/lib/db";
import { metrics } from "@/lib/metrics/registry";
import { claimedRowSchema } from "@/lib/queue/types";
import { createTestDb, type TestDb } from "@/test/db";
import { deadLetterJob, markCancelled, settleOutcome } from "./outcomes";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

async function counted(kind: string, outcome: string): Promise<number> {
  const { values } = await metrics().jobOutcomes.get();
  return values
    .filter((v) => v.labels.kind === kind && v.labels.outcome === outcome)
    .reduce((sum, v) => sum + v.value, 0);
}

async function settledToStoredCount(): Promise<number> {
  const { values } = await metrics().settledToStored.get();
  return values
    .filter((v) => v.metricName === "tally_settled_to_stored_seconds_count")
    .reduce((sum, v) => sum + v.value, 0);
}

const outcomeOf = async (id: string) => (await db().job.findUniqueOrThrow({ where: { id } })).outcome;

describe("job outcomes in the metrics", () => {
  it("a rolled-back outcome counts nothing; the committed retry counts once; a second setter nothing", async () => {
    await db().job.create({ data: { id: "o-1", kind: "extract", settledAt: new Date(Date.now() - 2000) } });
    const before = await counted("extract", "stored");
    const histogramBefore = await settledToStoredCount();

    await expect(
      transaction(async (tx) => {
        expect(await settleOutcome(tx, "o-1", "stored")).toBe(true);
        throw new Error("the results write failed after the outcome was set");
      }),
    ).rejects.toThrow("the results write failed");
    expect(await outcomeOf("o-1")).toBe("pending");
    expect(await counted("extract", "stored")).toBe(before);
    expect(await settledToStoredCount()).toBe(histogramBefore);

    expect(await transaction((tx) => settleOutcome(tx, "o-1", "stored"))).toBe(true);
    expect(await outcomeOf("o-1")).toBe("stored");
    expect(await counted("extract", "stored")).toBe(before + 1);
    expect(await settledToStoredCount()).toBe(histogramBefore + 1);

    // A duplicate delivery or a racing worker: the outcome is already set, nothing more is counted.
    expect(await transaction((tx) => settleOutcome(tx, "o-1", "stored"))).toBe(false);
    expect(await counted("extract", "stored")).toBe(before + 1);
  });

  it("cancellations and dead letters count once each, by kind and outcome", async () => {
    await db().job.create({ data: { id: "o-2", kind: "batch" } });
    await db().job.create({ data: { id: "o-3", kind: "crawl" } });
    const cancelled = await counted("batch", "cancelled");
    const dead = await counted("crawl", "dead_lettered");
    expect(await markCancelled("o-2")).toBe(true);
    expect(await markCancelled("o-2")).toBe(false);
    const item = claimedRowSchema.parse({
      id: 1,
      kind: "process_job",
      payload: "{}",
      jobId: "o-3",
      dedupeKey: null,
      attempts: 3,
      maxAttempts: 3,
      leaseOwner: "test",
      leaseExpiresAt: new Date(),
    });
    expect(await deadLetterJob("o-3", item, { code: "X", message: "gave up" })).toBe(true);
    expect(await deadLetterJob("o-3", item, { code: "X", message: "gave up" })).toBe(false);
    expect(await counted("batch", "cancelled")).toBe(cancelled + 1);
    expect(await counted("crawl", "dead_lettered")).toBe(dead + 1);
    expect(await db().deadLetter.count({ where: { jobId: "o-3" } })).toBe(1);
  });

  it("refuses to set an outcome in a transaction that has no after-commit list, and keeps nothing", async () => {
    await db().job.create({ data: { id: "o-4", kind: "extract" } });
    const before = await counted("extract", "stored");
    await expect(db().$transaction((tx) => settleOutcome(tx, "o-4", "stored"))).rejects.toThrow(
      /transaction\(\) from lib\/db\.ts/,
    );
    expect(await outcomeOf("o-4")).toBe("pending");
    expect(await counted("extract", "stored")).toBe(before);
  });
});
