// A tiny round-robin load balancer in front of the chaos run's servers: each request goes to the next
// server in turn. A server that refuses the connection (killed, restarting) has seen nothing, so the
// request moves on to the next one, as a load balancer's health checks would arrange; a server that
// dies after taking the request leaves the caller a 502 (the platform retries its delivery).
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";

export type Balancer = { url: string; served: number[]; close(): Promise<void> };

export async function startBalancer(targets: string[]): Promise<Balancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const served = targets.map(() => 0);
  let next = 0;
  const forward = (i: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const u = new URL(path, targets[i]);
      const req = request(u, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers };
      delete headers.connection;
      for (let tried = 0; tried < targets.length * 3; tried++) {
        const i = next++ % targets.length;
        try {
          const r = await forward(i, req.method ?? "GET", req.url ?? "/", headers, body);
          served[i]!++;
          const out = { ...r.headers };
          delete out.connection;
          delete out["transfer-encoding"];
          res.writeHead(r.status, out).end(r.body);
          return;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== "ECONNREFUSED") break;
          if (tried % targets.length === targets.length - 1) await new Promise((r) => setTimeout(r, 200));
        }
      }
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" }).end('{"error":"bad gateway"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
