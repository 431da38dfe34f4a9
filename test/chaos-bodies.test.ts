// The chaos run's body store mode at a small size (issue 40), on the suite's store (SQLite, or
// PostgreSQL under vitest.postgres.config.mts): pages of 20–200 KB through the body store (a folder on
// SQLite; on PostgreSQL an S3-compatible server, so the suite runs each backend once), Tally
// SIGKILLed while a body is being put, a sweeper with a 15 s grace sweeping all the time and SIGKILLed
// at random. Nothing lost or doubled, every stored result's body there, readable and hash-correct, and
// after a sweep past the grace no object that no row names and no temporary file. The full run:
// `npm run chaos -- --body-bytes 20000,200000 [--store postgres] [--body-store s3]`.
import { describe, expect, inject, it } from "vitest";
import { printBodies } from "../scripts/chaos/bodies";
import { printLedger } from "../scripts/chaos/ledger";
import { runChaos } from "../scripts/chaos/run";
import { POSTGRES_ADMIN_URL, TEST_STORE } from "./store";

const backend = TEST_STORE === "postgres" ? "s3" : "file";

describe(`chaos with the body store (small, ${TEST_STORE}, ${backend})`, () => {
  it("keeps every stored result's body through kills during puts and killed sweeps", { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const ledger = await runChaos({
      jobs: 80,
      kills: 2,
      seed: 40,
      timeoutMs: 540_000,
      store: TEST_STORE,
      ...(TEST_STORE === "postgres"
        ? { postgres: { adminUrl: POSTGRES_ADMIN_URL, template: inject("templateDb") } }
        : {}),
      broker: "none",
      bodies: { bodyBytes: [20_000, 200_000], graceMs: 15_000, backend },
      log: (s) => lines.push(s),
    });
    printLedger(ledger, (s) => lines.push(s));
    if (ledger.bodies) printBodies(ledger.bodies, (s) => lines.push(s));
    console.log(lines.join("\n"));
    expect(ledger.lost).toBe(0);
    expect(ledger.storedTwice).toBe(0);
    expect(ledger.wrongOutcome).toBe(0);
    expect(ledger.stored).toBeGreaterThan(40);
    const b = ledger.bodies!;
    expect(b.rowsNamingBodies).toBeGreaterThan(40);
    expect(b).toMatchObject({ backend, missing: 0, corrupt: 0, rowsWithoutBody: 0, unreferencedLeft: 0 });
    // s3rver cannot list unfinished multipart uploads (null); a folder must have no temporary file left.
    expect(b.temporariesLeft).toBe(backend === "s3" ? null : 0);
    expect(b.ok).toBe(true);
    // The faults happened: kills while a put was writing, sweeps cut short.
    expect(b.killsDuringStores).toBeGreaterThanOrEqual(1);
    expect(b.sweeps).toBeGreaterThan(5);
    expect(b.sweeperKills).toBeGreaterThan(3);
  });
});
