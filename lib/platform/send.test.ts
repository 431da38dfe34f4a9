// The client's HTTP exchange over Node's http module against a real server: bodies decoded as fetch
// decodes them, an abort while the body trickles in ends the exchange, connections are kept alive.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync, brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformClient } from "./http-client";
import { AnswerTooLarge, nodeSend } from "./send";

let server: http.Server;
let base = "";
const sockets = new Set<unknown>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    sockets.add(req.socket);
    const json = JSON.stringify({ path: req.url, method: req.method, encoding: req.headers["accept-encoding"] });
    if (req.url === "/gzip") {
      res.writeHead(200, { "content-encoding": "gzip", "x-request-id": "r-1" }).end(gzipSync(json));
    } else if (req.url === "/br") {
      res.writeHead(200, { "content-encoding": "br" }).end(brotliCompressSync(json));
    } else if (req.url === "/big") {
      // 3 MiB of JSON, written in pieces as a real server streams it.
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"pad":"');
      for (let i = 0; i < 3 * 1024; i++) res.write("x".repeat(1024));
      res.end('"}');
    } else if (req.url === "/bomb") {
      // 64 MiB of spaces in about 64 KiB of gzip: the size on the wire says nothing.
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(64 * 1024 * 1024, 32)));
    } else if (req.url?.startsWith("/v1/extract/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ job_id: "j1", status: "completed", pad: "x".repeat(2 * 1024 * 1024) }));
    } else if (req.url === "/trickle") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      const timer = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(timer));
    } else {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => res.writeHead(201).end(JSON.stringify({ got: body, length: req.headers["content-length"] })));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const init = (signal = new AbortController().signal) => ({ method: "GET", headers: {}, signal });

describe("nodeSend", () => {
  it("decodes gzip and brotli bodies, as fetch does, and reads headers by any case", async () => {
    const gz = await nodeSend(`${base}/gzip`, init());
    expect(gz.status).toBe(200);
    expect(JSON.parse(gz.text)).toMatchObject({ path: "/gzip", encoding: "gzip, deflate, br" });
    expect(gz.header("X-Request-Id")).toBe("r-1");
    expect(gz.header("retry-after")).toBeNull();
    expect(JSON.parse((await nodeSend(`${base}/br`, init())).text)).toMatchObject({ path: "/br" });
  });

  it("sends a body with its length (multi-byte characters counted in bytes)", async () => {
    const body = JSON.stringify({ url: "https://example.com/é" });
    const res = await nodeSend(`${base}/post`, { ...init(), method: "POST", body });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toEqual({ got: body, length: String(Buffer.byteLength(body)) });
  });

  it("stops reading an answer past maxBytes, counted decoded (a gzip bomb too); under it, reads it whole", async () => {
    const big = await nodeSend(`${base}/big`, { ...init(), maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(AnswerTooLarge);
    expect(big).toMatchObject({ limit: 1024 * 1024, status: 200 });
    const bomb = await nodeSend(`${base}/bomb`, { ...init(), maxBytes: 8 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(bomb).toBeInstanceOf(AnswerTooLarge);
    const whole = await nodeSend(`${base}/big`, { ...init(), maxBytes: 4 * 1024 * 1024 });
    expect(whole.text.length).toBe(3 * 1024 * 1024 + 10);
  });

  it("the client answers an oversized answer as an invalid response, once: not retried, not an outage", async () => {
    let calls = 0;
    const client = createPlatformClient({
      baseUrl: base,
      apiKey: "k",
      maxAnswerBytes: 1024 * 1024,
      outageAfter: 1,
      onCall: () => void calls++,
    });
    const err = await client.getJob("extract", "j1").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "INVALID_RESPONSE", retryable: false, status: 200 });
    expect(String((err as Error).message)).toMatch(/larger than 1048576 bytes.*TALLY_PLATFORM_MAX_ANSWER_MB/);
    expect(calls).toBe(1);
    // Not counted as the platform failing (outageAfter 1 would open the breaker): the next call is sent.
    const again = await client.getJob("extract", "j1").catch((e: unknown) => e);
    expect(again).toMatchObject({ code: "INVALID_RESPONSE" });
    expect(calls).toBe(2);
  });

  it("rejects when aborted while the body is still arriving, instead of waiting for its end", async () => {
    // The body never ends: without the abort this would hang until the test's timeout.
    const err = await nodeSend(`${base}/trickle`, init(AbortSignal.timeout(200))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: "AbortError" });
  });

  it("keeps connections alive between calls", async () => {
    sockets.clear();
    for (let i = 0; i < 5; i++) await nodeSend(`${base}/gzip`, init());
    expect(sockets.size).toBe(1);
  });

  it("drops an idle connection before a server that announces a short keep-alive closes it", async () => {
    // A server closing idle connections after 2 s (Keep-Alive: timeout=2): a request sent as it closes
    // one fails with ECONNRESET, and a POST is not retried. The agent keeps it 1 s only.
    const short = http.createServer((req, res) => res.writeHead(200).end(String(req.socket.remotePort)));
    short.keepAliveTimeout = 2000;
    await new Promise<void>((r) => short.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(short.address() as AddressInfo).port}/`;
    try {
      const first = (await nodeSend(url, init())).text;
      expect((await nodeSend(url, init())).text).toBe(first); // reused at once
      await new Promise((r) => setTimeout(r, 1500)); // idle past the agent's 1 s, within the server's 2 s
      expect((await nodeSend(url, { ...init(), method: "POST", body: "{}" })).text).not.toBe(first);
    } finally {
      await new Promise((r) => short.close(r));
    }
  });

  it("rejects a URL that is not http or https", async () => {
    await expect(nodeSend("ftp://example.com/", init())).rejects.toThrow("unsupported protocol ftp:");
  });
});
