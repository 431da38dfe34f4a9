import "server-only";
import { connect, type NatsConnection } from "nats";
import type { SinkConfig } from "../sink-config";
import type { Sink, SinkEvent, SinkOptions } from "./types";

// NATS JetStream: each event published with Nats-Msg-Id = the event id and counted delivered only after
// the stream's ack. The stream drops a second message with the same id within its duplicate window
// (two minutes by default; set it longer than the retry window: docs/sinks.md). The client reconnects
// by itself after the server restarts.

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
    async deliver(e: SinkEvent) {
      const nc = await open();
      const ack = await nc
        .jetstream({ timeout: opts.timeoutMs })
        .publish(config.subject, Buffer.from(e.body), { msgID: e.id, timeout: opts.timeoutMs });
      if (!ack.stream) throw new Error("no stream acknowledged the message");
    },
    async close() {
      const l = live;
      live = null;
      if (l) await (await l.catch(() => null))?.close().catch(() => undefined);
    },
  };
}
