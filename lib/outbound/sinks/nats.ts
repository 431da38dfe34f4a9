import "server-only";
import { connect, type NatsConnection } from "nats";
import type { SinkConfig } from "../sink-config";
import { outcomes, type Sink, type SinkEvent, type SinkOptions } from "./types";

// NATS JetStream: each event published with Nats-Msg-Id = the event id and counted delivered only after
// the stream's ack. The stream drops a second message with the same id within its duplicate window
// (two minutes by default; set it longer than the retry window: docs/sinks.md). The client reconnects
// by itself after the server restarts. A batch is published at once and its acks awaited together.

function connectOptions(url: string, timeoutMs: number) {
  const u = new URL(url);
  return {
    servers: `${u.hostname.includes(":") ? `[${u.hostname}]` : u.hostname}:${u.port || 4222}`,
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { pass: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === "tls:" ? { tls: {} } : {}),
    timeout: timeoutMs,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    name: "tally-sink",
    // No stack captured per request: a failed attempt records the error's message, not where it began.
    noAsyncTraces: true,
  };
}

export function natsSink(config: SinkConfig<"nats">, opts: SinkOptions): Sink {
  let live: Promise<NatsConnection> | null = null;
  const open = () =>
    (live ??= connect(connectOptions(config.url, opts.timeoutMs)).then(
      (nc) => {
        nc.closed().then(() => (live = null));
        return nc;
      },
      (err) => {
        live = null;
        throw err;
      },
    ));
  return {
    async check() {
      const nc = await open();
      const jsm = await nc.jetstreamManager({ timeout: opts.timeoutMs });
      // Throws "no stream matches subject" when no stream captures it: the events would go nowhere.
      await jsm.streams.find(config.subject);
    },
    async deliverMany(events: SinkEvent[]) {
      if (events.length === 0) return [];
      const js = (await open()).jetstream({ timeout: opts.timeoutMs });
      // Published together, each counted only once the stream acknowledged it.
      return outcomes(
        events.map(async (e) => {
          const ack = await js.publish(config.subject, Buffer.from(e.body), { msgID: e.id, timeout: opts.timeoutMs });
          if (!ack.stream) throw new Error("no stream acknowledged the message");
        }),
      );
    },
    async close() {
      const l = live;
      live = null;
      if (l) await (await l.catch(() => null))?.close().catch(() => undefined);
    },
  };
}
