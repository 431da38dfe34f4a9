// A TCP cable between Tally and a service (its database, the platform), which a test can pull: cut()
// drops every connection and stops listening (connections refused, as while a server restarts),
// mend() listens again on the same port; drop() only ends the connections open now.
import { createServer, connect, type Server, type Socket } from "node:net";

export type Cable = { port: number; cut(): Promise<void>; mend(): Promise<void>; drop(): void; close(): Promise<void> };

export async function startCable(targetPort: number, targetHost = "127.0.0.1"): Promise<Cable> {
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.once("close", () => open.delete(s));
  };
  const make = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      track(client);
      track(upstream);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
  const listen = (s: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        const a = s.address();
        resolve(typeof a === "object" && a ? a.port : 0);
      });
    });
  let server: Server | null = make();
  const port = await listen(server, 0);
  const drop = () => {
    for (const s of open) s.destroy();
  };
  const cut = async () => {
    const s = server;
    server = null;
    drop();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    port,
    drop,
    cut,
    async mend() {
      if (server) return;
      server = make();
      await listen(server, port);
    },
    close: cut,
  };
}
