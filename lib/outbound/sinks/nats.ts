import "server-only";
import { isIP } from "node:net";
import { connect, type ConnectionOptions, type NatsConnection, type TlsOptions } from "nats";
import type { SinkConfig } from "../sink-config";
import type { GuardContext } from "../../net";
import { guardedAddresses } from "./guard";
import { outcomes, type Sink, type SinkEvent, type SinkOptions } from "./types";

// NATS JetStream: each event published with Nats-Msg-Id = the event id and counted delivered only after
// the stream's ack. The stream drops a second message with the same id within its duplicate window
// (two minutes by default; set it longer than the retry window: docs/sinks.md). The client reconnects
// by itself after the server restarts. A batch is published at once and its acks awaited together.
//
// The client resolves names itself (no lookup hook) and would follow the servers a NATS server announces
// (INFO connect_urls). So it is given the addresses the guard checked, not the name, ignores announced
// servers, and after MAX_RECONNECTS failed attempts closes: the next delivery resolves and checks anew.

/** Reconnect attempts to the checked addresses (500 ms apart) before the connection closes for good. */
const MAX_RECONNECTS = 20;

/** The client's options: the URL's server as checked addresses (or the name, when no guard applies). */
export async function natsOptions(
  url: string,
  timeoutMs: number,
  guard: GuardContext | undefined,
): Promise<ConnectionOptions> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = u.port || "4222";
  const addresses = guard ? await guardedAddresses(host, guard) : [host];
  // tls://: TLS checked against the URL's name (given an address, the client would check that; its
  // node transport passes these options to tls.connect, servername included, which its type leaves out).
  // nats://: no TLS, not even offered by the server (the same reason).
  const tls: (TlsOptions & { servername?: string }) | null =
    u.protocol === "tls:" ? (isIP(host) ? {} : { servername: host }) : null;
  return {
    servers: addresses.map((a) => `${a.includes(":") ? `[${a}]` : a}:${port}`),
    ignoreClusterUpdates: true,
    resolve: false,
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { pass: decodeURIComponent(u.password) } : {}),
    tls,
    timeout: timeoutMs,
    reconnect: true,
    maxReconnectAttempts: MAX_RECONNECTS,
    reconnectTimeWait: 500,
    name: "tally-sink",
    // No stack captured per request: a failed attempt records the error's message, not where it began.
    noAsyncTraces: true,
  };
}

export function natsSink(config: SinkConfig<"nats">, opts: SinkOptions): Sink {
  let live: Promise<NatsConnection> | null = null;
  const open = () =>
    (live ??= natsOptions(config.url, opts.timeoutMs, opts.guard)
      .then((o) => connect(o))
      .then(
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
