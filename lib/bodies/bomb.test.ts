// A decompression bomb in the body store (issue 47): a 1.6 KB brotli object that decodes to 1 GiB.
// Every read stops at the size the row recorded (or, for a row without one, at MAX_UNSIZED_BODY) and
// fails with BodyCorrupt, the process's memory growing by little more than that size: before, an
// 809-byte object took the process to 1.17 GB for 11 s before the hash check refused it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BodyCorrupt, fileBodyStore, type BodyStore } from ".";
import { MAX_UNSIZED_BODY } from "./codec";
import { objectName } from "./store";

const GiB = 1024 * 1024 * 1024;
const KEY = "ab".repeat(32);
let dir: string;
let store: BodyStore;

/** Brotli of 1 GiB of zeros, streamed (about a second). */
async function bomb(): Promise<Buffer> {
  const z = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  const chunks: Buffer[] = [];
  z.on("data", (c: Buffer) => chunks.push(c));
  const zero = Buffer.alloc(16 * 1024 * 1024);
  for (let written = 0; written < GiB; written += zero.length)
    if (!z.write(zero)) await new Promise((r) => z.once("drain", r));
  const ended = new Promise((r) => z.once("end", r));
  z.end();
  await ended;
  return Buffer.concat(chunks);
}

/** Runs `read` sampling the process's resident memory; its error and the peak growth in bytes. */
async function peakGrowth(read: () => Promise<unknown>): Promise<{ error: unknown; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  let error: unknown = null;
  try {
    await read();
  } catch (err) {
    error = err;
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { error, growth: peak - before };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "tally-bomb-"));
  const data = await bomb();
  expect(data.length).toBeLessThan(4096);
  const file = path.join(dir, objectName(KEY, "br"));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  store = fileBodyStore({ root: dir });
}, 60_000);
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a decompression bomb in the body store", () => {
  it("read() stops at the row's size: BodyCorrupt, memory bounded", async () => {
    const { error, growth } = await peakGrowth(() => store.read(KEY, "br", 200_000));
    expect(error).toBeInstanceOf(BodyCorrupt);
    expect(error).toMatchObject({ code: "body_corrupt", key: KEY });
    expect(String((error as Error).message)).toContain("decodes past 200000 bytes");
    expect(growth).toBeLessThan(64 * 1024 * 1024);
  });

  it("text() and the stream of get() stop there too", async () => {
    const t = await peakGrowth(() => store.text(KEY, "br", 200_000));
    expect(t.error).toMatchObject({ code: "body_corrupt", key: KEY });
    expect(String((t.error as Error).message)).toContain("decodes past 200000 bytes");
    expect(t.growth).toBeLessThan(64 * 1024 * 1024);
    const g = await peakGrowth(async () => {
      for await (const chunk of store.get(KEY, "br", 200_000)) void chunk;
    });
    expect(g.error).toMatchObject({ code: "body_corrupt", key: KEY });
    expect(String((g.error as Error).message)).toContain("decodes past 200000 bytes");
    expect(g.growth).toBeLessThan(64 * 1024 * 1024);
  });

  it("a row without a size stops at MAX_UNSIZED_BODY, not at the bomb's gigabyte", async () => {
    const { error, growth } = await peakGrowth(() => store.read(KEY, "br"));
    expect(error).toMatchObject({ code: "body_corrupt", key: KEY });
    expect(String((error as Error).message)).toContain(`decodes past ${MAX_UNSIZED_BODY} bytes`);
    expect(growth).toBeLessThan(4 * MAX_UNSIZED_BODY);
  });
});
