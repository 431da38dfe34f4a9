// The live heap of another Node process, read through its inspector (the process runs with
// --inspect=127.0.0.1:PORT): a full collection first (HeapProfiler.collectGarbage), then the used size
// (Runtime.getHeapUsage), so garbage waiting for the next collection does not count. RSS alone cannot
// tell a process that holds more and more from one whose heap grew once and keeps its pages.
// Needs a global WebSocket (Node 22, or Node 20 with --experimental-websocket).

type Pending = { resolve(v: unknown): void; reject(e: Error): void };

export type HeapProbe = {
  /** MB of live JavaScript heap after a full collection. */
  liveMb(): Promise<number>;
  close(): void;
};

export function canProbeHeap(): boolean {
  return typeof globalThis.WebSocket === "function";
}

export async function openHeapProbe(inspectPort: number): Promise<HeapProbe> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${inspectPort}`);
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error(`inspector ${url} refused`)), { once: true });
  });
  let next = 1;
  const pending = new Map<number, Pending>();
  ws.addEventListener("message", (m) => {
    const msg = JSON.parse(String(m.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const p = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id!);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  });
  const call = (method: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    async liveMb() {
      await call("HeapProfiler.collectGarbage");
      const usage = (await call("Runtime.getHeapUsage")) as { usedSize: number };
      return Math.round((usage.usedSize / 2 ** 20) * 10) / 10;
    },
    close() {
      ws.close();
    },
  };
}
