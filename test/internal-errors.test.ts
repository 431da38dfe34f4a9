// What viewers see of internal errors (issue 47 item 6), against the built server over real HTTP, on a
// body store in a temp folder and on S3 (an s3rver behind a TCP proxy the test takes down): a body that
// is missing, corrupt or cannot be read now, in the results API, the change feed, both exports, a run's
// exports and the job page (a body store that does not answer included: 200, body_unavailable by
// row), say to a viewer and an operator the code and a plain sentence, never the store's folder, bucket, prefix, endpoint or the
// system's error text; an admin gets those. A destination refused by the address guard: the address it
// resolved to is for admins only.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLES, type Role } from "@/lib/auth/roles";
import { createUser } from "@/lib/auth/users";
import { db, transaction } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { settleOutcome } from "@/lib/jobs/outcomes";
import { createDestination } from "@/lib/outbound/destinations";
import { PASSWORD, sessionFor } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { objectsBehind, startS3Server, type S3Server } from "./s3";
import { startTally, type TallyServer } from "./tally-server";
import { startProxy, type Proxy } from "./tcp-proxy";
import { TEST_STORE } from "./store";

const JOB = "internal-errors-job";
const RUN = "internal-errors-run";
const page = (seed: string) =>
  Array.from({ length: 400 }, (_, i) => `${seed} paragraph ${i} of a stored page, with words.`).join("\n");
const objectPath = (root: string, key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), `${key}.br`);

type Item = { itemKey: string; markdown: string | null; bodyError: string | null };

describe.each(["file", "s3"] as const)(
  `what each role sees of internal errors (%s store, ${TEST_STORE})`,
  (backend) => {
    let s3: S3Server | undefined;
    let proxy: Proxy | undefined;
    let t: TestDb;
    let tally: TallyServer;
    const saved = { ...process.env };
    const cookies = {} as Record<Role, string>;
    let keys: string[] = [];
    /** What must reach an admin only: the store's folder, or its bucket, prefix and endpoint. */
    let internals: string[] = [];

    const get = (role: Role, p: string) => fetch(tally.url + p, { headers: { cookie: cookies[role] } });
    const json = async (role: Role, p: string) => {
      const res = await get(role, p);
      expect(res.status, `${role} ${p}`).toBe(200);
      return (await res.json()) as { items: Item[] };
    };
    const leaked = (text: string) => internals.filter((s) => text.includes(s));

    beforeAll(async () => {
      let env: Record<string, string> = {};
      if (backend === "s3") {
        s3 = await startS3Server("tally-internal-bucket");
        proxy = await startProxy(s3.port);
        const aws = s3.env(`http://127.0.0.1:${proxy.port}`);
        Object.assign(process.env, aws);
        env = { ...aws, TALLY_BODY_STORE: "s3://tally-internal-bucket/private-prefix?forcePathStyle=true" };
      }
      const { TALLY_BODY_STORE } = env;
      t = await createTestDb({
        ...(TALLY_BODY_STORE ? { TALLY_BODY_STORE } : {}),
        // Only this process may save a destination on 127.0.0.1; the server refuses it when it sends.
        TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
      });
      internals =
        backend === "file"
          ? [t.dir]
          : ["tally-internal-bucket", "private-prefix", `127.0.0.1:${proxy!.port}`, "ECONNREFUSED"];
      await db().job.create({
        data: {
          id: JOB,
          kind: "batch",
          url: "https://example.com",
          origin: "submitted",
          outcome: "stored",
          resultCount: 3,
        },
      });
      const bodies = [0, 1, 2].map((i) => ({ markdown: page(`internal ${backend} ${i}`), html: null }));
      const kept = await keepBodies(bodies);
      keys = kept.map((k) => k.markdownKey!);
      await db().result.createMany({
        data: kept.map((k, i) => ({
          jobId: JOB,
          itemKey: String(i),
          url: `https://example.com/${i}`,
          format: "markdown",
          markdownKey: k.markdownKey,
          markdownCodec: k.markdownCodec,
          markdownSize: k.markdownSize,
        })),
      });
      // A run whose three URLs are those results (its exports read the same bodies).
      await db().run.create({
        data: { id: RUN, name: "internal errors", total: 3, batchSize: 1000, request: "{}", createdBy: "test" },
      });
      await db().runUrl.createMany({
        data: [0, 1, 2].map((i) => ({
          runId: RUN,
          position: i,
          url: `https://example.com/${i}`,
          state: "stored",
          jobId: JOB,
          itemKey: String(i),
        })),
      });
      // Result 0: its object deleted (body_missing); 1: a byte flipped (body_corrupt); 2: kept.
      const behind = objectsBehind(t.config.TALLY_BODY_STORE, s3?.endpoint);
      await behind.remove(keys[0]);
      const flipped = await behind.raw(keys[1]);
      flipped[Math.floor(flipped.length / 2)] ^= 0xff;
      await behind.overwrite(keys[1], flipped);
      behind.close();

      // A destination the server's guard refuses at send (no TALLY_ALLOW_PRIVATE_DESTINATIONS there).
      await createDestination({ url: "http://127.0.0.1:9/hook", events: ["job.stored"] }, "test");
      await db().job.create({ data: { id: "refused-job", kind: "extract", url: "https://example.com/r" } });
      await db().result.create({
        data: {
          jobId: "refused-job",
          itemKey: "0",
          url: "https://example.com/r",
          format: "markdown",
          markdown: "# hi",
        },
      });
      await transaction((tx) => settleOutcome(tx, "refused-job", "stored"));

      for (const role of ROLES)
        await createUser({ email: `${role}@internal.test`, name: role, role, password: PASSWORD });
      tally = await startTally(env, t.url);
      for (const role of ROLES) cookies[role] = await sessionFor(tally, `${role}@internal.test`);
    }, 120_000);

    afterAll(async () => {
      await tally?.stop();
      await t?.cleanup();
      await proxy?.close();
      await s3?.stop();
      process.env = saved;
    });

    it("a missing or corrupt body: the code and a plain sentence to viewers and operators, the store's words to admins", async () => {
      for (const role of ROLES) {
        const api = (await json(role, `/api/jobs/${JOB}/results`)).items;
        const feed = (await json(role, `/api/results?jobId=${JOB}`)).items;
        const jsonl = (await (await get(role, `/api/results/export?format=jsonl&jobId=${JOB}`)).text())
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Item);
        const csv = await (await get(role, `/api/results/export?format=csv&jobId=${JOB}`)).text();
        const jobPage = await (await get(role, `/jobs/${JOB}`)).text();
        const runJsonl = await (await get(role, `/api/runs/${RUN}/export?format=jsonl`)).text();
        const runCsv = await (await get(role, `/api/runs/${RUN}/export?format=csv`)).text();
        for (const [reader, items] of Object.entries({ api, feed, jsonl })) {
          expect(
            items.map((i) => [i.itemKey, i.markdown === null]),
            `${role} ${reader}`,
          ).toEqual([
            ["0", true],
            ["1", true],
            ["2", false],
          ]);
          const [missing, corrupt] = items.map((i) => i.bodyError ?? "");
          if (role === "admin") {
            expect(missing, reader).toMatch(
              new RegExp(
                `^body_missing: the markdown of result 0 of job ${JOB} cannot be read: body ${keys[0]} is missing: no object at `,
              ),
            );
            expect(corrupt, reader).toMatch(
              /^body_corrupt: the markdown of result 1 of job .* cannot be read: body [0-9a-f]{64} is corrupt: its br data at /,
            );
            expect(leaked(missing + corrupt), reader).not.toEqual([]);
          } else {
            expect(missing, `${role} ${reader}`).toBe(
              `body_missing: the markdown of result 0 of job ${JOB} cannot be read: it is missing from the body store`,
            );
            expect(corrupt, `${role} ${reader}`).toMatch(
              /^body_corrupt: the markdown of result 1 of job \S+ cannot be read: it is corrupt in the body store/,
            );
            expect(items[2].bodyError).toBeNull();
          }
        }
        for (const [reader, text] of Object.entries({ csv, jobPage, runJsonl, runCsv })) {
          if (role === "admin") expect(leaked(text), reader).not.toEqual([]);
          else {
            expect(leaked(text), `${role} ${reader}`).toEqual([]);
            expect(text, `${role} ${reader}`).toContain("it is missing from the body store");
          }
        }
        if (role !== "admin") expect(leaked(JSON.stringify([api, feed, jsonl])), role).toEqual([]);
      }
    });

    it("a body store that does not answer: 200 with body_unavailable by row in plain words, the store named to admins only", async () => {
      // S3: every connection refused; the folder: the kept body's object is a directory now (EISDIR).
      if (proxy) await proxy.down();
      else {
        const at = objectPath(t.config.TALLY_BODY_STORE.slice("file:".length), keys[2]);
        await rm(at);
        await mkdir(at);
      }
      for (const role of ROLES) {
        for (const p of [`/api/jobs/${JOB}/results`, `/api/results?jobId=${JOB}`]) {
          const res = await get(role, p);
          expect(res.status, `${role} ${p}`).toBe(200);
          const { items } = (await res.json()) as { items: Item[] };
          const unavailable = items.find((i) => i.itemKey === "2")?.bodyError ?? "";
          expect(unavailable, `${role} ${p}`).toMatch(/^body_unavailable: the markdown of result 2 of job /);
          if (role === "admin") {
            expect(unavailable, p).toMatch(/cannot be read now: the body store at (file:|s3:)/);
            expect(leaked(unavailable), p).not.toEqual([]);
          } else {
            expect(unavailable, `${role} ${p}`).toMatch(
              /cannot be read now \(try again\): the body store did not answer$/,
            );
            expect(leaked(JSON.stringify(items)), `${role} ${p}`).toEqual([]);
          }
        }
        const exported = await (await get(role, `/api/results/export?format=jsonl&jobId=${JOB}`)).text();
        const unavailable = exported
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Item)
          .filter((i) => i.bodyError?.startsWith("body_unavailable: "));
        expect(unavailable.length, role).toBeGreaterThan(0);
        if (role === "admin") expect(leaked(exported)).not.toEqual([]);
        else {
          expect(leaked(exported), role).toEqual([]);
          expect(unavailable[0].bodyError).toMatch(/cannot be read now \(try again\): the body store did not answer$/);
        }
      }
      // The detail is in the server's log.
      expect(internals.some((s) => tally.output().includes(s))).toBe(true);
      if (proxy) await proxy.up();
    });

    it("a destination the guard refused: the address it resolved to is for admins only", async () => {
      type Delivery = { jobId: string; lastError: string | null };
      let byRole = {} as Record<Role, Delivery | undefined>;
      for (let i = 0; i < 100; i++) {
        for (const role of ROLES) {
          const list = (await (await get(role, "/api/outbound")).json()) as { items: Delivery[] };
          byRole[role] = list.items.find((d) => d.jobId === "refused-job" && d.lastError !== null);
        }
        if (ROLES.every((r) => byRole[r])) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(byRole.admin?.lastError).toMatch(/^refused: 127\.0\.0\.1 is a private, loopback/);
      for (const role of ["viewer", "operator"] as const) {
        expect(byRole[role]?.lastError, role).toMatch(/^refused: Tally does not connect to this destination's address/);
        expect(byRole[role]?.lastError, role).not.toContain("127.0.0.1");
      }
      byRole = {} as typeof byRole;
    });
  },
);
