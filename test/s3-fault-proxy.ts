// An HTTP proxy on loopback in front of the test's S3 server (test/s3.ts) that passes requests on, or,
// once the test says so, fails every request as a broken S3 would: the connection reset (a network
// error), no answer at all (held until the proxy passes again: packets dropped on the way), or an S3
// error answer (AccessDenied, NoSuchBucket, SlowDown…) in S3's own XML. The mode
// switches at once for the next request, so a test can stop the store between two reads of one export.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type S3Fault =
  | { kind: "pass" }
  | { kind: "reset" }
  | { kind: "hold" }
  | { kind: "answer"; status: number; code: string; message: string };

/** The faults a body store meets, by name: what S3 (or the way to it) answers while it is down. */
export const S3_FAULTS = {
  reset: { kind: "reset" },
  accessDenied: { kind: "answer", status: 403, code: "AccessDenied", message: "Access Denied" },
  noSuchBucket: { kind: "answer", status: 404, code: "NoSuchBucket", message: "The specified bucket does not exist" },
  slowDown: { kind: "answer", status: 503, code: "SlowDown", message: "Please reduce your request rate." },
} as const satisfies Record<string, S3Fault>;

export type S3FaultProxy = {
  endpoint: string;
  set(fault: S3Fault): void;
  /** Requests answered with a fault (or held) since the proxy started. */
  failed(): number;
  /** Requests that reached the proxy since it started, whatever it did with them. */
  seen(): number;
  close(): Promise<void>;
};

export async function startS3FaultProxy(target: string): Promise<S3FaultProxy> {
  const to = new URL(target);
  let fault: S3Fault = { kind: "pass" };
  let failed = 0;
  let seen = 0;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    seen++;
    const now = fault;
    if (now.kind === "hold") {
      failed++;
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    if (now.kind === "reset") {
      failed++;
      req.socket.destroy();
      return;
    }
    if (now.kind === "answer") {
      failed++;
      req.resume();
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${now.code}</Code><Message>${now.message}</Message><RequestId>test</RequestId></Error>`;
      res.writeHead(now.status, { "content-type": "application/xml" });
      // A HEAD's answer has no body: S3 says only the status then.
      res.end(req.method === "HEAD" ? undefined : xml);
      return;
    }
    const out = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(f) {
      fault = f;
      // What was held gets no answer now either: its connection is dropped (its client gave up anyway).
      if (f.kind !== "hold") for (const res of held) res.destroy();
    },
    failed: () => failed,
    seen: () => seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
