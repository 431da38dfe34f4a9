// The body store on both backends, real ones: a temp folder, and an s3rver in its own process
// (test/s3-server.mjs) reached through a small HTTP proxy of the test's that notes each request, so a
// test can tell a multipart upload from a single PUT and a put that wrote from one that did not.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BodyCorrupt,
  BodyMissing,
  type BodyStore,
  type BodyStoreOptions,
  isBodyError,
  fileBodyStore,
  openBodyStore,
  s3BodyStore,
  type S3BodyStoreOptions,
  type StoredBody,
} from ".";
import { parseConfig } from "@/lib/config";
import { TEMP_PREFIX } from "./file";
import { textBytes, textCache } from "./text-cache";

const MiB = 1024 * 1024;
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const dirs: string[] = [];
const tempDir = (base = tmpdir()) => {
  const d = mkdtempSync(path.join(base, "tally-bodies-"));
  dirs.push(d);
  return d;
};

/** A page-like text body: compressible, as the bodies Tally stores. */
function page(bytes: number): Buffer {
  const words = ["scrape", "result", "tally", "body", "store", "page", "article", "<p>", "</p>", "link", "nav"];
  const parts: string[] = [];
  for (let n = 0, i = 0; n < bytes; i++) {
    const w = words[(i * 7 + (i >> 3)) % words.length] + (i % 13 === 0 ? `-${i}` : "");
    parts.push(w);
    n += w.length + 1;
  }
  return Buffer.from(parts.join(" ").slice(0, bytes));
}

async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function readError(s: Readable): Promise<unknown> {
  try {
    await readAll(s);
  } catch (err) {
    return err;
  }
  throw new Error("the stream ended without an error");
}

async function listAll(store: BodyStore): Promise<StoredBody[]> {
  const out: StoredBody[] = [];
  for await (const o of store.list()) out.push(o);
  return out;
}

// ---- the S3 server, and a proxy that notes requests ------------------------------------------------

let s3server: ChildProcess;
let s3port = 0;
let proxy: http.Server;
let proxyPort = 0;
const requests: string[] = [];
/** The checksum headers of each request with a body, as the SDK sent them. */
const checksums: string[] = [];
let cutNextGet = false;
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
let admin: S3Client;
let bucketCount = 0;

async function startS3(): Promise<void> {
  // In memory where the machine has it, as test/sink-services.ts does.
  const dir = tempDir(existsSync("/dev/shm") ? "/dev/shm" : tmpdir());
  s3server = spawn(process.execPath, ["test/s3-server.mjs", dir], { stdio: ["ignore", "pipe", "inherit"] });
  s3port = await new Promise<number>((resolve, reject) => {
    s3server.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
    s3server.once("exit", (code) => reject(new Error(`test/s3-server.mjs exited with ${code}`)));
  });
  proxy = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}${req.headers["x-amz-copy-source"] ? " copy" : ""}`);
    if (req.method === "PUT")
      checksums.push(String(req.headers["x-amz-checksum-crc32"] ?? req.headers["x-amz-trailer"]));
    const up = http.request(
      { host: "127.0.0.1", port: s3port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (cutNextGet && req.method === "GET" && !req.url?.includes("list-type")) {
          // The connection dies after the first chunk of the answer.
          cutNextGet = false;
          answer.once("data", (chunk: Buffer) => res.write(chunk, () => res.destroy()));
          return;
        }
        answer.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyPort = (proxy.address() as net.AddressInfo).port;
  admin = new S3Client({
    endpoint: `http://127.0.0.1:${s3port}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials,
  });
}

const s3options = (bucket: string, extra: Partial<S3BodyStoreOptions> = {}): S3BodyStoreOptions => ({
  bucket,
  prefix: "tally/bodies",
  endpoint: `http://127.0.0.1:${proxyPort}`,
  region: "us-east-1",
  forcePathStyle: true,
  credentials,
  timeoutMs: 5000,
  ...extra,
});

beforeAll(startS3);
afterAll(async () => {
  admin?.destroy();
  await new Promise((resolve) => proxy?.close(resolve));
  s3server?.kill("SIGTERM");
  await new Promise((resolve) => (s3server?.exitCode !== null ? resolve(null) : s3server.once("exit", resolve)));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// ---- one describe over both backends ----------------------------------------------------------------

/** A fresh store of each backend, with what a test needs to reach behind it (the file or the object). */
type Harness = {
  store: BodyStore;
  /** The stored bytes of an object, read past the store. */
  raw(name: string): Promise<Buffer>;
  /** Replaces an object's stored bytes, past the store. */
  overwrite(name: string, data: Buffer): Promise<void>;
  /** Removes an object, past the store (which would forget its cached text). */
  remove(name: string): Promise<void>;
  /** Every object's name (relative, `ab/cd/<key>.<ext>`), temporary files included. */
  everything(): Promise<string[]>;
  /** Leaves what a put interrupted before its object became visible leaves behind. */
  interruptedPut(name: string, data: Buffer): Promise<void>;
};

async function fileHarness(extra: Partial<BodyStoreOptions> = {}): Promise<Harness> {
  const root = path.join(tempDir(), "bodies");
  const at = (name: string) => path.join(root, ...name.split("/"));
  const walk = async (d: string, rel = ""): Promise<string[]> => {
    const out: string[] = [];
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      out.push(...(e.isDirectory() ? await walk(path.join(d, e.name), r) : [r]));
    }
    return out;
  };
  return {
    store: fileBodyStore({ root, ...extra }),
    raw: (name) => readFile(at(name)),
    overwrite: (name, data) => writeFile(at(name), data),
    remove: (name) => rm(at(name)),
    everything: () => walk(root),
    async interruptedPut(name, data) {
      // A crash after the temporary file was written and fsynced, before the rename.
      const target = at(name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(path.join(path.dirname(target), `${TEMP_PREFIX}${path.basename(target)}-deadbeef0000`), data);
    },
  };
}

async function s3Harness(extra: Partial<S3BodyStoreOptions> = {}): Promise<Harness> {
  const bucket = `bodies-${++bucketCount}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const Key = (name: string) => `tally/bodies/${name}`;
  return {
    store: s3BodyStore(s3options(bucket, extra)),
    async raw(name) {
      const out = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: Key(name) }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    async overwrite(name, data) {
      await admin.send(new PutObjectCommand({ Bucket: bucket, Key: Key(name), Body: data }));
    },
    async remove(name) {
      await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: Key(name) }));
    },
    async everything() {
      const listed = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((o) => String(o.Key).replace(/^tally\/bodies\//, ""));
    },
    async interruptedPut(name, data) {
      // A multipart upload whose parts went up and whose completion never came (the process died).
      const { UploadId } = await admin.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: Key(name) }));
      await admin.send(new UploadPartCommand({ Bucket: bucket, Key: Key(name), UploadId, PartNumber: 1, Body: data }));
    },
  };
}

const BACKENDS = [
  ["file", fileHarness],
  ["s3", s3Harness],
] as const;

describe.each(BACKENDS)("body store on %s", (backend, harness) => {
  const ext = { br: "br", gzip: "gz", identity: "bin" } as const;
  const nameOf = (key: string, codec: keyof typeof ext) => `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}.${ext[codec]}`;

  it("gives back small, large, empty and binary bodies byte for byte, under their SHA-256", async () => {
    const { store, everything, raw } = await harness();
    const bodies = {
      small: Buffer.from("<html>hello</html>"),
      large: page(3 * MiB),
      empty: Buffer.alloc(0),
      binary: randomBytes(200_000),
      text: page(150_000),
    };
    for (const [what, bytes] of Object.entries(bodies)) {
      const d = await store.put(bytes);
      expect(d.key, what).toBe(sha256(bytes));
      expect(d.size, what).toBe(bytes.length);
      const kept = await raw(nameOf(d.key, d.codec));
      expect(d.storedSize, what).toBe(kept.length);
      expect((await readAll(store.get(d.key, d.codec))).equals(bytes), what).toBe(true);
      expect(await store.has(d.key), what).toBe(true);
    }
    // Text is compressed; bytes that do not shrink (random, empty) are kept as they are.
    const text = await store.put(bodies.text);
    expect(text.codec).toBe("br");
    expect(text.storedSize).toBeLessThan(bodies.text.length / 3);
    expect((await store.put(bodies.binary)).codec).toBe("identity");
    expect((await store.put(bodies.empty)).codec).toBe("identity");
    expect(await everything()).toHaveLength(5);
    // A large body streams out in many chunks, not one buffer.
    let chunks = 0;
    const large = await store.put(bodies.large);
    for await (const chunk of store.get(large.key, large.codec)) chunks += (chunk as Buffer).length > 0 ? 1 : 0;
    expect(chunks).toBeGreaterThan(4);
  });

  it("keeps the same bytes put twice, or at once, as one object, written once", async () => {
    const { store, everything } = await harness();
    const bytes = page(40_000);
    const first = await store.put(bytes);
    const uploads = () => requests.filter((r) => r.startsWith("PUT ") && !r.endsWith(" copy")).length;
    const writesBefore = uploads();
    const again = await store.put(Buffer.from(bytes));
    const together = await Promise.all([store.put(bytes), store.put(bytes)]);
    expect(again).toEqual(first);
    expect(together).toEqual([first, first]);
    expect(await everything()).toEqual([nameOf(first.key, "br")]);
    // No upload again: a put that finds its body kept only touches it (a copy onto itself, for the sweep).
    if (backend === "s3") expect(uploads()).toBe(writesBefore);
    const listed = await listAll(store);
    expect(listed.map((o) => [o.key, o.codec, o.storedSize])).toEqual([[first.key, "br", first.storedSize]]);
    expect(Date.now() - listed[0].modifiedAt.getTime()).toBeLessThan(60_000);
  });

  it("fans out by the key's first two bytes: ab/cd/abcd…", async () => {
    const { store, everything } = await harness();
    const keys = [];
    for (let i = 0; i < 20; i++) keys.push((await store.put(Buffer.from(`page ${i} `.repeat(50)))).key);
    const names = (await everything()).sort();
    expect(names).toEqual(keys.map((k) => `${k.slice(0, 2)}/${k.slice(2, 4)}/${k}.br`).sort());
    expect((await listAll(store)).map((o) => o.key).sort()).toEqual([...keys].sort());
  });

  it("fails the read with BodyCorrupt, naming the key, when the object's bytes changed", async () => {
    const { store, raw, overwrite } = await harness();
    // Compressed: one byte flipped (the decoder refuses it, or the hash does not match).
    const text = await store.put(page(100_000));
    const stored = await raw(nameOf(text.key, "br"));
    stored[Math.floor(stored.length / 2)] ^= 0xff;
    await overwrite(nameOf(text.key, "br"), stored);
    const e1 = await readError(store.get(text.key, text.codec));
    expect(e1).toBeInstanceOf(BodyCorrupt);
    expect(e1).toMatchObject({ code: "body_corrupt", key: text.key });
    expect(String((e1 as Error).message)).toContain(text.key);
    // Kept as it is: one byte flipped decodes fine and only the hash tells.
    const bin = await store.put(randomBytes(50_000));
    const kept = await raw(nameOf(bin.key, "identity"));
    kept[123] ^= 0x01;
    await overwrite(nameOf(bin.key, "identity"), kept);
    const e2 = await readError(store.get(bin.key, bin.codec));
    expect(e2).toMatchObject({ code: "body_corrupt", key: bin.key });
    expect(String((e2 as Error).message)).toMatch(/hash to [0-9a-f]{64}/);
    // A valid brotli stream of other bytes; and one cut short.
    const other = await store.put(page(20_000));
    await overwrite(nameOf(other.key, "br"), brotliCompressSync(Buffer.from("something else")));
    expect(await readError(store.get(other.key, other.codec))).toMatchObject({ code: "body_corrupt", key: other.key });
    const cut = await store.put(page(30_000));
    const whole = await raw(nameOf(cut.key, "br"));
    await overwrite(nameOf(cut.key, "br"), whole.subarray(0, whole.length - 10));
    expect(await readError(store.get(cut.key, cut.codec))).toMatchObject({ code: "body_corrupt", key: cut.key });
  });

  it("fails the read with BodyMissing when there is no object, never an empty body", async () => {
    const { store } = await harness();
    const never = sha256(Buffer.from("never stored"));
    const e = await readError(store.get(never, "br"));
    expect(e).toBeInstanceOf(BodyMissing);
    expect(e).toMatchObject({ code: "body_missing", key: never });
    const d = await store.put(page(10_000));
    await store.delete(d.key);
    await store.delete(d.key); // again: nothing to do
    expect(await store.has(d.key)).toBe(false);
    expect(await readError(store.get(d.key, d.codec))).toMatchObject({ code: "body_missing", key: d.key });
    expect(await listAll(store)).toEqual([]);
    expect(() => store.get("../../etc/passwd", "br")).toThrow(/not a body key/);
  });

  it("shows nothing of a put interrupted before its object was in place, and a later put succeeds", async () => {
    const { store, everything, interruptedPut } = await harness();
    const bytes = page(60_000);
    const key = sha256(bytes);
    await interruptedPut(nameOf(key, "br"), Buffer.from("half a body"));
    if (backend === "file") expect((await everything())[0]).toContain(TEMP_PREFIX);
    expect(await store.has(key)).toBe(false);
    expect(await listAll(store)).toEqual([]);
    expect(await readError(store.get(key, "br"))).toMatchObject({ code: "body_missing", key });
    const d = await store.put(bytes);
    expect(d.key).toBe(key);
    expect((await readAll(store.get(key, d.codec))).equals(bytes)).toBe(true);
    expect((await listAll(store)).map((o) => o.key)).toEqual([key]);
  });

  it("text(): a corrupt or missing object fails on every call, never cached, never another body", async () => {
    const { store, raw, overwrite, remove } = await harness({ textCacheBytes: 8 * MiB });
    const bodies = await Promise.all([1, 2, 3, 4, 5].map((i) => store.put(page(60_000 + i * 1000))));
    const [flipped, cut, replaced, gone, good] = bodies;
    const name = (d: (typeof bodies)[number]) => nameOf(d.key, d.codec);
    // One byte flipped inside the compressed stream: about 4 flips in 10 still decode, to other bytes of
    // the same length (brotli keeps no checksum), which only the hash tells.
    const f = await raw(name(flipped));
    f[Math.floor(f.length / 2)] ^= 0xff;
    await overwrite(name(flipped), f);
    const c = await raw(name(cut));
    await overwrite(name(cut), c.subarray(0, c.length - 10));
    await overwrite(name(replaced), await raw(name(good)));
    await remove(name(gone));
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const [d, code] of [
        [flipped, "body_corrupt"],
        [cut, "body_corrupt"],
        [replaced, "body_corrupt"],
        [gone, "body_missing"],
      ] as const)
        await expect(store.text(d.key, d.codec, d.size), `${code} ${attempt}`).rejects.toMatchObject({
          code,
          key: d.key,
        });
    }
    expect(await store.text(good.key, good.codec, good.size)).toEqual({
      text: page(65_000).toString(),
      cached: false,
    });
  });

  it("text(): cached once verified, answered from the cache only while the object is there as it was read", async () => {
    const { store, raw, overwrite, remove } = await harness({ textCacheBytes: 8 * MiB });
    const bytes = page(120_000);
    const d = await store.put(bytes);
    const name = nameOf(d.key, d.codec);
    const whole = await raw(name);
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: false });
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: true });
    // No size from the row (older rows, other callers): the same.
    expect(await store.text(d.key, d.codec)).toEqual({ text: bytes.toString(), cached: true });

    // Cut short after it was cached: its stored size changed, so it is read again, and is corrupt.
    await overwrite(name, whole.subarray(0, whole.length - 10));
    await expect(store.text(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_corrupt", key: d.key });
    await expect(store.text(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_corrupt", key: d.key });
    // Put back: read and cached again.
    await overwrite(name, whole);
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: false });

    // Changed in place at the same size after it was cached: the text given is still the key's own
    // bytes (never other bytes); reading the object itself (read(), what `bodies verify` does) tells.
    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    await overwrite(name, flipped);
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: true });
    await expect(store.read(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_corrupt", key: d.key });

    // Gone after it was cached: missing, on this call and the next, not served from the cache.
    await remove(name);
    await expect(store.text(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_missing", key: d.key });
    await expect(store.text(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_missing", key: d.key });
    // Stored again (the same page fetched again): readable again.
    await store.put(bytes);
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: false });
    // The store's own delete forgets the text as well.
    await store.delete(d.key);
    await expect(store.text(d.key, d.codec, d.size)).rejects.toMatchObject({ code: "body_missing", key: d.key });
  });

  it("text(): every text is its key's, under many readers and a small cache that keeps evicting", async () => {
    // 1 MiB of cache (entries of at most 128 KiB) for 40 bodies of 20-140 KB: most reads evict another.
    const { store } = await harness({ textCacheBytes: MiB });
    const bodies = await Promise.all(Array.from({ length: 40 }, (_, i) => store.put(page(20_000 + i * 3000))));
    let cached = 0;
    const reads = Array.from({ length: 400 }, (_, i) => bodies[(i * 7 + (i >> 2)) % bodies.length]);
    // Eight readers at a time, as a page of results reads.
    let next = 0;
    const reader = async () => {
      for (let i = next++; i < reads.length; i = next++) {
        const d = reads[i];
        const got = await store.text(d.key, d.codec, d.size);
        if (got.cached) cached++;
        expect(sha256(Buffer.from(got.text))).toBe(d.key);
      }
    };
    await Promise.all(Array.from({ length: 8 }, reader));
    expect(cached).toBeGreaterThan(40);
    expect(cached).toBeLessThan(reads.length - 40);
    // Without a cache (the default of a store opened without textCacheBytes): never cached.
    const bare = await harness();
    const d = await bare.store.put(page(30_000));
    for (let i = 0; i < 3; i++) expect((await bare.store.text(d.key, d.codec, d.size)).cached).toBe(false);
  });

  it("check() passes on a usable store", async () => {
    const { store } = await harness();
    await store.check();
    await store.close();
  });
});

describe("body store on S3, alone", () => {
  it("sends a large body up in parts (multipart), with a checksum on each, and reads it back", async () => {
    const { store, everything } = await s3Harness({ partSize: 5 * MiB, multipartThreshold: 5 * MiB });
    const bytes = randomBytes(11 * MiB); // incompressible: kept as it is, 11 MiB, so three parts
    const from = requests.length;
    const fromChecksums = checksums.length;
    const d = await store.put(bytes);
    const mine = requests.slice(from);
    expect(mine.filter((r) => /^POST .*\?uploads/.test(r))).toHaveLength(1);
    expect(
      mine
        .filter((r) => /^PUT .*partNumber=/.test(r))
        .map((r) => /partNumber=(\d)/.exec(r)?.[1])
        .sort(),
    ).toEqual(["1", "2", "3"]);
    expect(mine.filter((r) => /^POST .*uploadId=/.test(r))).toHaveLength(1);
    expect(checksums.slice(fromChecksums)).toHaveLength(3);
    for (const c of checksums.slice(fromChecksums)) expect(c).not.toBe("undefined");
    expect(d).toMatchObject({ size: 11 * MiB, storedSize: 11 * MiB, codec: "identity" });
    expect(await everything()).toHaveLength(1);
    expect((await readAll(store.get(d.key, d.codec))).equals(bytes)).toBe(true);
    // Below the threshold: one PUT, with its checksum.
    const at = requests.length;
    await store.put(page(100_000));
    expect(requests.slice(at).filter((r) => r.startsWith("PUT "))).toHaveLength(1);
    expect(checksums.at(-1)).not.toBe("undefined");
    await store.close();
  });

  it("text(): readers of one body at once share one GET; a cached text costs a HEAD, not a GET", async () => {
    const { store } = await s3Harness({ textCacheBytes: 8 * MiB });
    const bytes = page(200_000);
    const d = await store.put(bytes);
    const mine = (from: number, method: string) =>
      requests.slice(from).filter((r) => r.startsWith(`${method} `) && r.includes(d.key)).length;
    const from = requests.length;
    const texts = await Promise.all(Array.from({ length: 6 }, () => store.text(d.key, d.codec, d.size)));
    expect(texts.every((t) => t.text === bytes.toString())).toBe(true);
    expect(mine(from, "GET")).toBe(1);
    const at = requests.length;
    expect(await store.text(d.key, d.codec, d.size)).toEqual({ text: bytes.toString(), cached: true });
    expect(mine(at, "GET")).toBe(0);
    expect(mine(at, "HEAD")).toBe(1);
    await store.close();
  });

  it("fails a read cut by the network with that error, not BodyCorrupt: the object is fine", async () => {
    const { store } = await s3Harness();
    const bytes = randomBytes(2 * MiB);
    const d = await store.put(bytes);
    cutNextGet = true;
    const err = await readError(store.get(d.key, d.codec));
    expect(err).not.toBeInstanceOf(BodyCorrupt);
    expect(err).not.toBeInstanceOf(BodyMissing);
    expect((await readAll(store.get(d.key, d.codec))).equals(bytes)).toBe(true);
    await store.close();
  });

  it("a missing bucket or refused credentials make a read unavailable, never a body missing for good (issue 47)", async () => {
    await admin.send(new CreateBucketCommand({ Bucket: "bodies-kept" }));
    const real = s3BodyStore(s3options("bodies-kept"));
    const d = await real.put(page(20_000));
    await real.close();
    for (const store of [
      s3BodyStore(s3options("no-such-bucket")),
      s3BodyStore(s3options("bodies-kept", { credentials: { accessKeyId: "WHO", secretAccessKey: "NOBODY" } })),
    ]) {
      // The whole read (GetObject), the cache's HEAD (text) and the stream: each says unavailable.
      for (const read of [
        () => store.read(d.key, d.codec, d.size),
        () => store.text(d.key, d.codec, d.size),
        () => readAll(store.get(d.key, d.codec, d.size)),
        () => store.has(d.key),
      ]) {
        const err = await read().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ code: "body_unavailable" });
      }
      await store.close();
    }
    // The same read of a key nobody stored is missing: NoSuchKey is the one "gone for good".
    const store = s3BodyStore(s3options("bodies-kept"));
    const absent = "0f".repeat(32);
    expect(await store.read(absent, "br", 10).catch((e: unknown) => e)).toMatchObject({ code: "body_missing" });
    expect(await store.text(absent, "br", 10).catch((e: unknown) => e)).toMatchObject({ code: "body_missing" });
    expect(await store.has(absent)).toBe(false);
    await store.close();
  });

  it("check() fails with a clear reason, in bounded time, on a wrong endpoint, bucket or credentials", async () => {
    // Nothing listens: refused at once.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const freePort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = s3BodyStore(s3options("bodies-1", { endpoint: `http://127.0.0.1:${freePort}`, timeoutMs: 500 }));
    await expect(refused.check()).rejects.toThrow(
      /s3:\/\/bodies-1\/tally\/bodies at http:\/\/127\.0\.0\.1:\d+: cannot reach it: .*ECONNREFUSED/,
    );
    await refused.close();
    // Something accepts connections and never answers: the timeout, not a hang.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const hanging = s3BodyStore(
      s3options("bodies-1", {
        endpoint: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
        timeoutMs: 300,
      }),
    );
    const t0 = Date.now();
    await expect(hanging.check()).rejects.toThrow(/bodies-1.*cannot reach it|no answer in time/);
    expect(Date.now() - t0).toBeLessThan(3000);
    await hanging.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
    // No such bucket.
    const nobucket = s3BodyStore(s3options("no-such-bucket"));
    await expect(nobucket.check()).rejects.toThrow(/s3:\/\/no-such-bucket.*the bucket does not exist/);
    await nobucket.close();
    // Credentials the server does not know.
    const stranger = s3BodyStore(
      s3options("bodies-1", { credentials: { accessKeyId: "WHO", secretAccessKey: "NOBODY" } }),
    );
    await expect(stranger.check()).rejects.toThrow(/s3:\/\/bodies-1.*access denied/);
    await stranger.close();
  });
});

describe("body store on files, alone", () => {
  it("writes files only where they belong: the object and its folders, no temporary file left", async () => {
    const root = path.join(tempDir(), "bodies");
    const store = fileBodyStore({ root });
    const d = await store.put(page(20_000));
    const top = await readdir(root);
    expect(top).toEqual([d.key.slice(0, 2)]);
    expect(await readdir(path.join(root, d.key.slice(0, 2), d.key.slice(2, 4)))).toEqual([`${d.key}.br`]);
    expect((await stat(path.join(root, d.key.slice(0, 2), d.key.slice(2, 4), `${d.key}.br`))).size).toBe(d.storedSize);
  });

  it("does not write a body again that is already kept (same file, same inode), only makes it young", async () => {
    const root = path.join(tempDir(), "bodies");
    const store = fileBodyStore({ root });
    const d = await store.put(page(20_000));
    const file = path.join(root, d.key.slice(0, 2), d.key.slice(2, 4), `${d.key}.br`);
    const before = await stat(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.put(page(20_000));
    const after = await stat(file);
    expect(after.ino).toBe(before.ino);
    // Touched (the sweep's grace counts from the last put that found it), not rewritten.
    expect(after.mtimeMs).toBeGreaterThan(before.mtimeMs);
    expect(after.size).toBe(before.size);
  });

  it("check() fails with a clear reason where the folder cannot be made or written", async () => {
    const file = path.join(tempDir(), "a-file");
    await writeFile(file, "not a folder");
    await expect(fileBodyStore({ root: path.join(file, "bodies") }).check()).rejects.toThrow(
      new RegExp(`body store ${file}/bodies: cannot create the folder`),
    );
  });
});

describe("the cache of texts", () => {
  const key = (i: number) => sha256(Buffer.from(String(i)));
  const entry = (text: string) => ({ text, codec: "br" as const, storedSize: 1 });

  it("stays within its bytes, drops the least recently used first, and keeps nothing over an eighth", () => {
    const cache = textCache(100_000);
    const text = "a".repeat(5_000);
    for (let i = 0; i < 100; i++) {
      cache.set(key(i), entry(`${i}:${text}`), text.length + String(i).length + 1);
      expect(cache.bytes).toBeLessThanOrEqual(100_000);
      // The first entry, read at every turn, is the most recently used: it stays.
      expect(cache.get(key(0))?.text.startsWith("0:")).toBe(true);
    }
    expect(cache.size).toBeLessThan(100);
    expect(cache.get(key(1))).toBeUndefined();
    expect(cache.get(key(99))?.text).toBe(`99:${text}`);
    // A text over an eighth of the bound is not kept, and pushes nothing out.
    const before = cache.size;
    cache.set(key(1000), entry("b".repeat(13_000)), 13_000);
    expect(cache.get(key(1000))).toBeUndefined();
    expect(cache.size).toBe(before);
  });

  it("gives each key its own text: replaced on a second set, gone once deleted", () => {
    const cache = textCache(1_000_000);
    for (let i = 0; i < 50; i++) cache.set(key(i), entry(`text of ${i}`), `text of ${i}`.length);
    for (let i = 0; i < 50; i++) expect(cache.get(key(i))?.text).toBe(`text of ${i}`);
    cache.set(key(7), { text: "seven", codec: "gzip", storedSize: 9 }, 5);
    expect(cache.get(key(7))).toEqual({ text: "seven", codec: "gzip", storedSize: 9 });
    cache.delete(key(7));
    expect(cache.get(key(7))).toBeUndefined();
    expect(cache.get(sha256(Buffer.from("never set")))).toBeUndefined();
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it("counts a text as V8 keeps it: a byte a character for ASCII, two once any character is not", () => {
    const ascii = "plain text ".repeat(100);
    const accented = "café au lait ".repeat(100);
    const cjk = "頁面內容".repeat(100);
    expect(textBytes(ascii, Buffer.byteLength(ascii))).toBe(ascii.length + 200);
    expect(textBytes(accented, Buffer.byteLength(accented))).toBe(2 * accented.length + 200);
    expect(textBytes(cjk, Buffer.byteLength(cjk))).toBe(2 * cjk.length + 200);
  });
});

describe("isBodyError", () => {
  it("knows a body error by its code and key, also one of another copy of the module (Next loads lib/ twice)", () => {
    expect(isBodyError(new BodyMissing("a".repeat(64), "here"))).toBe(true);
    expect(isBodyError(new BodyCorrupt("a".repeat(64), "why"))).toBe(true);
    // What a BodyMissing of another module copy looks like to this one: not `instanceof`, same shape.
    const foreign = Object.assign(new Error("body … is missing"), { code: "body_missing", key: "a".repeat(64) });
    expect(foreign instanceof BodyMissing).toBe(false);
    expect(isBodyError(foreign)).toBe(true);
    expect(isBodyError(new Error("ENOENT"))).toBe(false);
    expect(isBodyError(Object.assign(new Error("x"), { code: "ENOENT", key: "k" }))).toBe(false);
  });
});

describe("openBodyStore", () => {
  it("opens the store a TALLY_BODY_STORE URL names, and refuses others with the reason", async () => {
    expect(openBodyStore().location).toBe(`file:${path.resolve("data/bodies")}`);
    expect(openBodyStore("file:/var/lib/tally/bodies").location).toBe("file:/var/lib/tally/bodies");
    expect(
      openBodyStore("s3://my-bucket/tally/bodies/?forcePathStyle=true", { endpoint: "http://minio:9000" }).location,
    ).toBe("s3://my-bucket/tally/bodies at http://minio:9000");
    expect(openBodyStore("s3://my-bucket", { region: "eu-west-1" }).location).toBe("s3://my-bucket");
    expect(() => openBodyStore("s3://b/p?region=x")).toThrow(/unknown option region/);
    expect(() => openBodyStore("http://bucket/p")).toThrow(/must be file:<folder> or s3:\/\/<bucket>\/<prefix>/);
    expect(() => openBodyStore("file:")).toThrow(/no folder/);
  });

  it("opens every TALLY_BODY_STORE the configuration accepts, the default included", () => {
    const parse = (v?: string) => parseConfig({ NODE_ENV: "test", TALLY_BODY_STORE: v }).TALLY_BODY_STORE;
    expect(parse(undefined)).toBe("file:./data/bodies");
    for (const url of [
      "file:./data/bodies",
      "file:/srv/bodies",
      "s3://bodies",
      "s3://my.bucket/a/b?forcePathStyle=true",
    ])
      expect(openBodyStore(parse(url)).location).toMatch(/^(file|s3):/);
    for (const bad of ["./data/bodies", "s3://", "s3://b/p?region=x", "https://bucket.s3.amazonaws.com/p"])
      expect(() => parse(bad), bad).toThrow(/TALLY_BODY_STORE: must be a folder such as/);
  });
});
