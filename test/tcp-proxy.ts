// A TCP proxy for tests: Tally (or a sink) connects to a service through it, and the test kills every
// connection (as pg_terminate_backend or a broker closing it does) or stops listening and starts again
// on the same port (connections refused, as while the service restarts), or lets the writes through but
// drops the answers, without touching the service other tests on the machine share.
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type Proxy = {
  port: number;
  /** Kills every connection (and ends a stall). */
  killAll(): void;
  /**
   * From now on the service's answers are dropped, not passed on: the writes arrive and take effect,
   * their acknowledgements never do (a connection lost after the write, before its answer).
   */
  stall(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let stalled = false;
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const sock of [client, upstream]) {
          // As the clients themselves do: no Nagle delay on small writes, or the proxy holds a batch's tail.
          sock.setNoDelay(true);
          sockets.add(sock);
          sock.on("close", () => sockets.delete(sock));
          sock.on("error", () => undefined);
        }
        client.pipe(upstream);
        upstream.on("data", (chunk: Buffer) => {
          if (!stalled) client.write(chunk);
        });
        upstream.on("end", () => client.end());
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve(s));
    });
  server = await listen(0);
  const port = (server.address() as AddressInfo).port;
  const killAll = () => {
    stalled = false;
    for (const s of sockets) s.destroy();
  };
  const down = async () => {
    const s = server;
    server = null;
    killAll();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    port,
    killAll,
    stall: () => void (stalled = true),
    down,
    async up() {
      if (!server) server = await listen(port);
    },
    close: down,
  };
}

/** Whether something answers on a TCP port within a second. */
export function answers(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, host);
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
  });
}
