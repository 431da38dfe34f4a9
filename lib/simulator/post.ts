import "server-only";
import http from "node:http";
import https from "node:https";

// The webhook sender's one HTTP call: a POST over Node's http module on kept-alive connections, the
// answer's status and nothing else (the body is drained, redirects are not followed). Node's fetch did
// the same at about twice the CPU (undici's web streams, Request and AbortSignal objects per call),
// and the sender is the simulator's hottest path when it delivers thousands of jobs a second.

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** POSTs `body` to `url`; the status once the answer's head arrives, or rejects (no answer, aborted). */
export function postForStatus(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const agent =
      target.protocol === "https:" ? agents["https:"] : target.protocol === "http:" ? agents["http:"] : null;
    if (!agent) return reject(new Error(`unsupported protocol ${target.protocol}`));
    const send = target.protocol === "https:" ? https.request : http.request;
    const req = send(
      target,
      { method: "POST", agent, signal, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } },
      (res) => {
        res.resume(); // drain, so the connection goes back to the pool
        res.on("error", () => undefined);
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
