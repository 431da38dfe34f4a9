// tsx --conditions=react-server bench/bodies-codec.ts [--only codecs,costs] [--seconds 0.3]
// The body store's two choices, measured (docs/operations/storage.md):
// - codecs: gzip and brotli from node:zlib at a few levels over generated pages like the ones Tally
//   stores (HTML with head, nav, article and footer boilerplate and markdown, 20-200 KB, words drawn
//   from a large vocabulary with a Zipf-like skew, so they compress like text and not like a repeated
//   string): compression ratio, compress and decompress MB/s (of uncompressed bytes, one core).
// - costs: the fixed cost of a put and a get of a small body on each backend (the filesystem in a temp
//   folder with its fsyncs; S3 through test/s3-server.mjs, a local s3rver in its own process, so no
//   network round trip: real S3 adds 10-50 ms) against an inline row written and read in SQLite (WAL,
//   synchronous=NORMAL as Tally's connection), for the inline threshold.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { type BodyDescriptor, fileBodyStore, s3BodyStore, type BodyStore } from "@/lib/bodies";
import { mulberry32 } from "@/lib/simulator/rng";
import { machine } from "./common";

const { values } = parseArgs({
  options: { only: { type: "string", default: "codecs,costs" }, seconds: { type: "string", default: "0.3" } },
  strict: true,
});
const parts = values.only.split(",");
const SECONDS = Number(values.seconds);

// ---- realistic pages -------------------------------------------------------------------------------

// The simulator's deterministic PRNG, so every run measures the same pages.
const rnd = mulberry32(40);
const SYLLABLES = "ka ri to na me su lo pa te vi da go ber ston ling ment tion ar en el is om un dra pre con ver".split(
  " ",
);
/** 5,000 words; drawn with a Zipf-like skew (common words often, most words rarely), as in prose. */
const VOCABULARY = Array.from({ length: 5000 }, () => {
  const n = 1 + Math.floor(rnd() * 4);
  return Array.from({ length: n }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join("");
});
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * Math.pow(rnd(), 3))];
const sentence = () => {
  const s = Array.from({ length: 6 + Math.floor(rnd() * 18) }, word).join(" ");
  return s[0].toUpperCase() + s.slice(1) + (rnd() < 0.1 ? "?" : ".");
};
const paragraph = () => Array.from({ length: 2 + Math.floor(rnd() * 6) }, sentence).join(" ");
const slug = () => `${word()}-${word()}`;

function htmlPage(target: number): string {
  const nav = Array.from(
    { length: 60 },
    (_, i) =>
      `<li class="nav-item nav-item--${i % 7}"><a class="nav-link" href="/section/${slug()}">${word()}</a></li>`,
  ).join("\n        ");
  const head = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${sentence()}</title>
    <link rel="stylesheet" href="/assets/main.4f9a2c.css" />
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"${sentence()}","datePublished":"2026-11-${10 + Math.floor(rnd() * 18)}T08:00:00Z","author":{"@type":"Person","name":"${word()} ${word()}"}}</script>
  </head>
  <body class="page page--article">
    <header class="site-header"><nav aria-label="Main"><ul class="nav">
        ${nav}
    </ul></nav></header>
    <main id="content"><article class="article">
      <h1 class="article__title">${sentence()}</h1>
`;
  const footer = `    </article></main>
    <footer class="site-footer"><p>&copy; 2026 ${word()} Media. All rights reserved.</p><ul class="footer-links">${nav}</ul></footer>
    <script src="/assets/vendor.8b1e0d.js" defer></script><script src="/assets/app.77c3f1.js" defer></script>
  </body>
</html>
`;
  const body: string[] = [];
  let size = head.length + footer.length;
  while (size < target) {
    const p =
      rnd() < 0.15
        ? `      <h2 class="article__heading" id="${slug()}">${sentence()}</h2>\n`
        : rnd() < 0.1
          ? `      <figure class="figure"><img src="/img/${slug()}.jpg" alt="${sentence()}" loading="lazy" width="800" height="450" /><figcaption>${sentence()}</figcaption></figure>\n`
          : `      <p class="article__paragraph">${paragraph().replace(/ (\w+) /, (_, w: string) => ` <a href="/${slug()}">${w}</a> `)}</p>\n`;
    body.push(p);
    size += p.length;
  }
  return head + body.join("") + footer;
}

function markdownPage(target: number): string {
  const out = [`# ${sentence()}\n\n`, ...Array.from({ length: 12 }, () => `- [${word()}](/section/${slug()})\n`), "\n"];
  let size = out.join("").length;
  while (size < target) {
    const p =
      rnd() < 0.15
        ? `## ${sentence()}\n\n`
        : rnd() < 0.1
          ? `![${sentence()}](/img/${slug()}.jpg)\n\n`
          : `${paragraph().replace(/ (\w+) /, (_, w: string) => ` [${w}](/${slug()}) `)}\n\n`;
    out.push(p);
    size += p.length;
  }
  out.push(`---\n\n© 2026 ${word()} Media · [Privacy](/privacy) · [Terms](/terms)\n`);
  return out.join("");
}

const SIZES = [20_000, 50_000, 100_000, 200_000];
const PAGES = SIZES.flatMap((s) => [htmlPage(s), markdownPage(s)]).map((p) => Buffer.from(p));
const TOTAL = PAGES.reduce((n, p) => n + p.length, 0);

// ---- codecs ----------------------------------------------------------------------------------------

type Candidate = { name: string; compress: (b: Buffer) => Buffer; decompress: (b: Buffer) => Buffer };
const brotli = (quality: number): Candidate => ({
  name: `brotli q${quality}`,
  compress: (b) =>
    zlib.brotliCompressSync(b, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length,
      },
    }),
  decompress: (b) => zlib.brotliDecompressSync(b),
});
const gzip = (level: number): Candidate => ({
  name: `gzip ${level}`,
  compress: (b) => zlib.gzipSync(b, { level }),
  decompress: (b) => zlib.gunzipSync(b),
});
const CANDIDATES = [gzip(1), gzip(6), gzip(9), brotli(1), brotli(4), brotli(5), brotli(6), brotli(9), brotli(11)];

/** Runs `work` over the corpus until `SECONDS` have passed (at least twice); MB/s of uncompressed bytes. */
function throughput(work: () => void): number {
  work(); // warm
  let rounds = 0;
  const t0 = performance.now();
  while (rounds < 2 || performance.now() - t0 < SECONDS * 1000) {
    work();
    rounds++;
  }
  return (TOTAL * rounds) / 1e6 / ((performance.now() - t0) / 1000);
}

function codecs(): void {
  console.log(
    `\nCodecs over ${PAGES.length} pages (HTML and markdown of ${SIZES.map((s) => `${s / 1000}`).join("/")} KB), ${(TOTAL / 1e6).toFixed(2)} MB:`,
  );
  console.log(
    `${"codec".padEnd(12)} ${"ratio".padStart(6)} ${"compress MB/s".padStart(14)} ${"decompress MB/s".padStart(16)}`,
  );
  for (const c of CANDIDATES) {
    const packed = PAGES.map(c.compress);
    packed.forEach((p, i) => {
      if (!c.decompress(p).equals(PAGES[i])) throw new Error(`${c.name} did not round-trip`);
    });
    const stored = packed.reduce((n, p) => n + p.length, 0);
    const cMBs = throughput(() => PAGES.forEach(c.compress));
    const dMBs = throughput(() => packed.forEach(c.decompress));
    console.log(
      `${c.name.padEnd(12)} ${(TOTAL / stored).toFixed(2).padStart(6)} ${cMBs.toFixed(1).padStart(14)} ${dMBs.toFixed(1).padStart(16)}`,
    );
  }
}

// ---- fixed costs -----------------------------------------------------------------------------------

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeEach(n: number, op: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op(i);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** A distinct small body per call (a new key each time: a put that writes, not one that finds). */
const small = (size: number, i: number) => {
  const b = Buffer.alloc(size, 0x61);
  b.write(`${i}:${Math.random()}`);
  return b;
};

async function storeCost(name: string, store: BodyStore, size: number): Promise<void> {
  const N = 200;
  const keys: BodyDescriptor[] = [];
  const put = await timeEach(N, async (i) => keys.push(await store.put(small(size, i))));
  const get = await timeEach(N, async (i) => {
    const { key, codec } = keys[i];
    for await (const chunk of store.get(key, codec)) void chunk;
  });
  // Again into folders that exist (a file store's usual case once its 65,536 folders are there).
  for (const { key } of keys) await store.delete(key);
  const again = await timeEach(N, (i) => store.put(small(size, i)));
  console.log(
    `${name.padEnd(34)} ${size.toString().padStart(7)} B  put ${put.toFixed(3)} ms (again ${again.toFixed(3)} ms)  get ${get.toFixed(3)} ms`,
  );
}

function inlineCost(dir: string, size: number): void {
  const conn = new Database(path.join(dir, `inline-${size}.db`));
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  conn.exec("CREATE TABLE result (id INTEGER PRIMARY KEY, url TEXT NOT NULL, body BLOB)");
  const insert = conn.prepare("INSERT INTO result (url, body) VALUES (?, ?)");
  const bare = conn.prepare("INSERT INTO result (url) VALUES (?)");
  const read = conn.prepare("SELECT body FROM result WHERE id = ?");
  const N = 2000;
  const ms = (f: (i: number) => unknown) => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) f(i);
    return (performance.now() - t0) / N;
  };
  const withBody = ms((i) => insert.run(`https://example.com/${i}`, small(size, i)));
  const without = ms((i) => bare.run(`https://example.com/b${i}`));
  const get = ms((i) => read.get(i + 1));
  console.log(
    `${"SQLite row, body inline".padEnd(34)} ${size.toString().padStart(7)} B  put ${withBody.toFixed(3)} ms  get ${get.toFixed(3)} ms  (the row alone ${without.toFixed(3)} ms)`,
  );
  conn.close();
}

async function costs(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-bodies-"));
  const s3dir = mkdtempSync(path.join(existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir(), "tally-bench-s3-"));
  const server = spawn(process.execPath, ["test/s3-server.mjs", s3dir], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
      server.once("exit", (code) => reject(new Error(`test/s3-server.mjs exited with ${code}`)));
    });
    const s3 = {
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    };
    const admin = new S3Client(s3);
    await admin.send(new CreateBucketCommand({ Bucket: "bodies" }));
    admin.destroy();
    console.log(`\nFixed costs, median of 200 (2,000 for SQLite) one after the other, in ${dir}:`);
    for (const size of [1024, 2048, 16_384]) {
      await storeCost("file (fsync, rename, fsync dir)", fileBodyStore({ root: path.join(dir, "bodies") }), size);
      const store = s3BodyStore({ bucket: "bodies", prefix: "bench", ...s3 });
      await storeCost("S3 (local s3rver, no network)", store, size);
      await store.close();
      inlineCost(dir, size);
    }
  } finally {
    server.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
    rmSync(s3dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(machine());
  if (parts.includes("codecs")) codecs();
  if (parts.includes("costs")) await costs();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
