// The body store chaos mode's end-of-run check (scripts/chaos/bodies.ts: checkBodies), broken on
// purpose, on both backends (a folder; an s3rver behind the harness's upload-watching proxy) and the
// suite's store: a chaos run passes only if this check can fail. A real database and body store are
// put in the states a buggy Tally or sweep would leave (an object deleted under its row, an object's
// bytes changed, a row naming a body never put, an object no row names, a put's leftover) and the
// check must count each one; with the final sweep broken (it sweeps nothing) it must also count what
// that sweep should have removed. Mended, the same check passes.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChaosBodyStore, checkBodies, startChaosBodyStore } from "../scripts/chaos/bodies";
import { type ChaosStore, postgresReader, sqliteReader } from "../scripts/chaos/store";
import { bodyStore, sweepBodies } from "@/lib/bodies";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { createTestDb, type TestDb } from "./db";
import { objectsBehind } from "./s3";
import { TEST_STORE } from "./store";

/** A page-like body of about `kb` KiB, different per `seed`. */
const page = (seed: string, kb = 24) =>
  Array.from({ length: kb * 16 }, (_, i) => `${seed} paragraph ${i} of a stored page with words.`).join("\n");

/** A put's temporary file left behind (a folder; an upload cut short on S3 leaves nothing). */
async function leaveTemporary(store: ChaosBodyStore): Promise<void> {
  if (store.backend === "file")
    writeFileSync(path.join(store.url.slice("file:".length), ".tmp-interrupted-put"), "half a body");
}

describe.each(["file", "s3"] as const)(
  `the chaos run's body check, broken on purpose (%s, ${TEST_STORE})`,
  (backend) => {
    let bodies: ChaosBodyStore;
    let t: TestDb;
    let reader: ChaosStore;
    const saved = { ...process.env };
    const ids: Record<"intact" | "deleted" | "changed" | "neverPut", number> = {
      intact: 0,
      deleted: 0,
      changed: 0,
      neverPut: 0,
    };

    beforeAll(async () => {
      bodies = await startChaosBodyStore(backend, false);
      // The standard AWS variables reach the SDK as an operator's would (through the proxy, on S3).
      const { TALLY_BODY_STORE, ...aws } = bodies.env;
      Object.assign(process.env, aws);
      t = await createTestDb({ TALLY_BODY_STORE });
      await bodyStore().check();
      reader = TEST_STORE === "postgres" ? postgresReader(t.url) : sqliteReader(t.url);

      await db().job.create({
        data: { id: "check-job", kind: "batch", url: "https://example.com", origin: "submitted" },
      });
      const kept = await keepBodies(
        ["intact", "deleted", "changed", "orphan"].map((s) => ({ markdown: page(s), html: null })),
      );
      const row = async (i: number, key: string) =>
        (
          await db().result.create({
            data: {
              jobId: "check-job",
              itemKey: String(i),
              url: `https://example.com/${i}`,
              format: "markdown",
              markdownKey: key,
              markdownCodec: "br",
              markdownSize: 1000,
            },
          })
        ).id;
      ids.intact = await row(0, kept[0]!.markdownKey!);
      ids.deleted = await row(1, kept[1]!.markdownKey!);
      ids.changed = await row(2, kept[2]!.markdownKey!);
      ids.neverPut = await row(3, "0".repeat(64));
      // kept[3] (orphan) gets no row: a store that crashed between its put and its commit.
      expect(kept.every((k) => k.markdownCodec === "br")).toBe(true);

      // The breakage.
      await bodyStore().delete(kept[1]!.markdownKey!);
      const behind = objectsBehind(bodies.url, bodies.env.AWS_ENDPOINT_URL_S3);
      await behind.overwrite(kept[2]!.markdownKey!, Buffer.from(kept[0]!.markdownKey!));
      behind.close();
      await leaveTemporary(bodies);
    }, 120_000);

    afterAll(async () => {
      await reader?.dispose();
      await t?.cleanup();
      await bodies?.dispose();
      process.env = saved;
    });

    const during = { kills: 0, killsDuringStores: 0 };

    it("counts every missing, changed and unnamed body, and what a broken final sweep leaves", async () => {
      const ledger = await checkBodies(reader, bodies, during, async () => {
        // The final sweep, broken on purpose: it sweeps nothing.
      });
      expect(ledger).toMatchObject({
        backend,
        rowsNamingBodies: 4,
        objectsNamed: 4,
        missing: 2,
        corrupt: 1,
        rowsWithoutBody: 3,
        unreferencedLeft: 1,
        temporariesLeft: backend === "file" ? 1 : null,
        ok: false,
      });
    });

    it("with the real sweep past the grace, still fails on the rows that name nothing", async () => {
      const ledger = await checkBodies(reader, bodies, during, async () => {
        await sweepBodies({ graceMs: 0 });
      });
      expect(ledger).toMatchObject({ missing: 2, corrupt: 1, rowsWithoutBody: 3, unreferencedLeft: 0, ok: false });
      expect(ledger.temporariesLeft).toBe(backend === "file" ? 0 : null);
    });

    it("passes once the broken rows are gone", async () => {
      await db().result.deleteMany({ where: { id: { in: [ids.deleted, ids.changed, ids.neverPut] } } });
      const ledger = await checkBodies(reader, bodies, during, async () => {
        await sweepBodies({ graceMs: 0 });
      });
      expect(ledger).toMatchObject({
        rowsNamingBodies: 1,
        missing: 0,
        corrupt: 0,
        rowsWithoutBody: 0,
        unreferencedLeft: 0,
        ok: true,
      });
    });
  },
);
