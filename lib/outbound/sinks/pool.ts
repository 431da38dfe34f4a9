import "server-only";
import { onShutdown, singleton } from "../../runtime";
import type { GuardContext } from "../../net";
import type { SinkType } from "../sink-config";
import { openSink, type Sink } from "./index";

// One open sink (its pooled connections) per destination, kept for the process's life and closed on
// shutdown. A destination whose config changed gets a new sink; the old one is closed.

type Entry = { key: string; sink: Sink };

const state = () =>
  singleton("outbound.sinks", () => {
    const open = new Map<string, Entry>();
    onShutdown(() => closeAllSinks());
    return { open };
  });

export function sinkFor(
  destinationId: string,
  type: SinkType,
  configJson: string,
  timeoutMs: number,
  guard?: GuardContext,
): Sink {
  const { open } = state();
  const key = `${type}\u0000${configJson}\u0000${timeoutMs}`;
  const cur = open.get(destinationId);
  if (cur && cur.key === key) return cur.sink;
  if (cur) void cur.sink.close().catch(() => undefined);
  const sink = openSink(type, JSON.parse(configJson), { timeoutMs, guard });
  open.set(destinationId, { key, sink });
  return sink;
}

export function isOpen(destinationId: string): boolean {
  return state().open.has(destinationId);
}

export async function closeSink(destinationId: string): Promise<void> {
  const { open } = state();
  const cur = open.get(destinationId);
  open.delete(destinationId);
  await cur?.sink.close().catch(() => undefined);
}

export async function closeAllSinks(): Promise<void> {
  const { open } = state();
  const all = [...open.values()];
  open.clear();
  await Promise.allSettled(all.map((e) => e.sink.close()));
}
