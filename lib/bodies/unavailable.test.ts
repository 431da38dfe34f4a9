// A body store that does not answer (issue 50), at the store itself, on S3 (s3rver behind a loopback
// proxy that fails requests as a broken S3 would): a bucket gone is body_unavailable, never every
// body missing, even just after a not-found told the store the bucket was there; and a store that
// holds its requests unanswered is not asked by every read of an export: once a few reads in a row
// failed, reads fail at once for a few seconds, then ask again and read as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, S3RVER_CREDENTIALS, type S3Server } from "@/test/s3";
import { S3_FAULTS, startS3FaultProxy, type S3FaultProxy } from "@/test/s3-fault-proxy";
import { type BodyDescriptor, type BodyStore, s3BodyStore } from ".";
import { DOWN_AFTER_FAILURES, DOWN_FOR_MS } from "./store";

const text = (i: number) => `page ${i}: ` + "words of a page kept in the body store. ".repeat(200);
const codeOf = (err: unknown) => (err as { code?: string }).code;

describe("an S3 body store that does not answer", () => {
  let s3: S3Server;
  let proxy: S3FaultProxy;
  let store: BodyStore;
  let kept: BodyDescriptor[];

  beforeAll(async () => {
    s3 = await startS3Server("unavailable-unit");
    proxy = await startS3FaultProxy(s3.endpoint);
    store = s3BodyStore({
      bucket: "unavailable-unit",
      prefix: "b",
      endpoint: proxy.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      // A held request gives up soon (yet not so soon that a loaded machine looks like an outage),
      // once: the test is about what the store does after.
      timeoutMs: 1500,
      maxAttempts: 1,
      textCacheBytes: 8 * 1024 * 1024,
    });
    // Written through a store of ordinary patience straight to s3rver: on a loaded machine a put can
    // take longer than the test store's 300 ms, which is about reads, not writes.
    const writer = s3BodyStore({
      bucket: "unavailable-unit",
      prefix: "b",
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    kept = [];
    for (let i = 0; i < 40; i++) kept.push(await writer.put(Buffer.from(text(i))));
    await writer.close();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await proxy?.close();
    await s3?.stop();
  });

  const read = (k: BodyDescriptor) => store.text(k.key, k.codec, k.size);
  /** Every kept body read, eight at a time as a page of results is, each the text or its error code. */
  async function readAll(): Promise<string[]> {
    const out = new Array<string>(kept.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < kept.length; i = next++)
        out[i] = await read(kept[i]).then(
          (r) => (r.text === text(i) ? "ok" : "wrong text"),
          (err: unknown) => codeOf(err) ?? String(err),
        );
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    return out;
  }
  async function readsAgain(): Promise<string[]> {
    let got = await readAll();
    for (let i = 0; i < 50 && got.some((g) => g !== "ok"); i++) {
      await new Promise((r) => setTimeout(r, DOWN_FOR_MS / 10));
      got = await readAll();
    }
    return got;
  }

  it("a bucket gone is body_unavailable, also for a text cached just after a not-found", async () => {
    expect(await readAll()).toEqual(Array(40).fill("ok"));
    // A put of a new body asks S3 for it first: its 404, and the bucket found there, are remembered.
    const fresh = await store.put(Buffer.from(text(1000)));
    proxy.set(S3_FAULTS.noSuchBucket);
    // The cached text's HEAD answers 404 now (a HEAD has no body to say which is gone).
    await expect(read(kept[0])).rejects.toMatchObject({ code: "body_unavailable" });
    await expect(store.text(fresh.key, fresh.codec, fresh.size)).rejects.toMatchObject({ code: "body_unavailable" });
    proxy.set({ kind: "pass" });
    expect(await readsAgain()).toEqual(Array(40).fill("ok"));
  });

  it("a store that holds its requests is asked by a few reads, the rest fail at once; then it reads again", async () => {
    expect(await readsAgain()).toEqual(Array(40).fill("ok"));
    const from = proxy.seen();
    proxy.set({ kind: "hold" });
    expect(await readAll()).toEqual(Array(40).fill("body_unavailable"));
    // The eight reads in flight when it stopped answering (and no more than a few rounds of them):
    // not one request per body.
    const asked = proxy.seen() - from;
    expect(asked).toBeGreaterThanOrEqual(DOWN_AFTER_FAILURES);
    expect(asked).toBeLessThan(20);
    // Said for what it is, a store that did not answer, and how it is being spared.
    await expect(read(kept[0])).rejects.toThrow(
      /no answer in time \(\d+ reads in a row failed: not asked again for 3 s\)/,
    );
    proxy.set({ kind: "pass" });
    expect(await readsAgain()).toEqual(Array(40).fill("ok"));
  });
});
