// A receiving endpoint for tests and the chaos run: a node:http server that records every request
// and answers what `answer` says for it (a status code, or "drop" to hang up without an answer).
// It can go down (connections refused) and come back on the same port.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type SinkRequest = { headers: IncomingHttpHeaders; body: string; at: number };
export type SinkAnswer = number | "drop";

export type Sink = {
  url: string;
  port: number;
  requests: SinkRequest[];
  /** How the sink answers from now on; `seen` counts earlier requests with the same webhook-id. */
  setAnswer(answer: (req: SinkRequest, seen: number) => SinkAnswer): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startSink(
  answer: (req: SinkRequest, seen: number) => SinkAnswer = () => 200,
  port = 0,
): Promise<Sink> {
  const requests: SinkRequest[] = [];
  const seen = new Map<string, number>();
  let server: Server | null = null;
  let current = answer;

  const listen = (p: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const r: SinkRequest = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
          requests.push(r);
          const id = String(req.headers["webhook-id"] ?? "");
          const n = seen.get(id) ?? 0;
          seen.set(id, n + 1);
          const a = current(r, n);
          if (a === "drop") {
            req.socket.destroy();
            return;
          }
          res.writeHead(a, { "content-type": "text/plain" }).end(a < 300 ? "ok" : `sink says ${a}`);
        });
      });
      s.keepAliveTimeout = 1000;
      s.once("error", reject);
      s.listen(p, "127.0.0.1", () => resolve(s));
    });

  server = await listen(port);
  const bound = (server.address() as AddressInfo).port;
  const stop = async () => {
    const s = server;
    server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    requests,
    setAnswer: (a) => (current = a),
    down: stop,
    async up() {
      if (!server) server = await listen(bound);
    },
    close: stop,
  };
}
