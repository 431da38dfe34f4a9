import "server-only";
import http from "node:http";
import https from "node:https";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";

// The client's one HTTP exchange: a request, then the answer's status, headers and whole body as text.
// By default over Node's http module on kept-alive connections: Node's fetch (undici) costs about
// twice the CPU a call (its web streams, Request, Response and AbortSignal objects), and the worker
// makes one call or more for every job (bench/pipeline.ts); it also keeps the client off the `fetch`
// Next patches in its server (a tracing span and data-cache bookkeeping on every call). Tests may
// hand the client a `fetch` instead (fetchSend).

/** What the client reads of an answer. */
export type Answer = { status: number; header(name: string): string | null; text: string };
export type SendInit = {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** The most the body may hold, decoded; past it the exchange fails with AnswerTooLarge. */
  maxBytes?: number;
};

/**
 * An answer whose body passed SendInit.maxBytes, decoded (a compressed answer is counted as it
 * inflates, so a small bomb is stopped too). Past about 512 MiB a body could not even become a string.
 */
export class AnswerTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly status: number,
  ) {
    super(`the answer passed ${limit} bytes`);
    this.name = "AnswerTooLarge";
  }
}
/** Sends one request; rejects on no answer or when `signal` aborts, reading the body included. */
export type Send = (url: string, init: SendInit) => Promise<Answer>;

// An idle kept-alive connection is dropped before the server drops it: a request sent on a connection
// the server is closing fails with ECONNRESET, and a POST is never retried (it may have been carried
// out). Node's agent honours the server's `Keep-Alive: timeout=N` hint (leaving N - 1 s) only when it
// has a timeout of its own to shorten; IDLE_MS is that timeout, and the cap for servers without a hint
// (under the 60 s of common load balancers). It never cuts a request short: each has its own deadline.
const IDLE_MS = 30_000;
const agents = {
  http: new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  https: new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

/** The body stream, decoded as fetch would (gzip, deflate, br), or as it came. */
function decoded(res: http.IncomingMessage): Readable {
  switch ((res.headers["content-encoding"] ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return res.pipe(createGunzip());
    case "deflate":
      return res.pipe(createInflate());
    case "br":
      return res.pipe(createBrotliDecompress());
    default:
      return res;
  }
}

export const nodeSend: Send = (url, init) =>
  new Promise<Answer>((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    if (!secure && target.protocol !== "http:") return reject(new TypeError(`unsupported protocol ${target.protocol}`));
    const headers: Record<string, string> = { "Accept-Encoding": "gzip, deflate, br", ...init.headers };
    if (init.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(init.body));
    const options = { method: init.method, headers, signal: init.signal, agent: secure ? agents.https : agents.http };
    const req = (secure ? https : http).request(target, options, (res) => {
      const body = decoded(res);
      const chunks: Buffer[] = [];
      const max = init.maxBytes ?? Infinity;
      let received = 0;
      body.on("data", (c: Buffer) => {
        received += c.length;
        if (received > max) {
          reject(new AnswerTooLarge(max, res.statusCode ?? 0));
          chunks.length = 0;
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      body.on("error", reject);
      res.on("error", reject); // aborted or reset while the body was read
      body.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
          },
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(init.body);
  });

/** The same exchange through a `fetch` (tests that tamper with answers or record calls). */
export function fetchSend(f: typeof fetch): Send {
  return async (url, init) => {
    const res = await f(url, init);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (init.maxBytes !== undefined && bytes.byteLength > init.maxBytes)
      throw new AnswerTooLarge(init.maxBytes, res.status);
    const text = new TextDecoder().decode(bytes);
    return { status: res.status, header: (name) => res.headers.get(name), text };
  };
}
