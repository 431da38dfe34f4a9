import "server-only";
import amqp, { type ChannelModel, type ConfirmChannel } from "amqplib";
import type { SinkConfig } from "../sink-config";
import { amqpGuardedLookup } from "./guard";
import { asError, type Sink, type SinkEvent, type SinkOptions } from "./types";

// RabbitMQ: a persistent message per event with messageId = the event id, published mandatory on a
// confirm channel; counted delivered only after the broker's publisher confirm, and refused when the
// broker returns it unroutable (no queue bound: it would be dropped). Consumers deduplicate by
// messageId (the broker does not): exactly once in effect. A closed connection is re-opened on the next
// delivery. A batch is published in full, then its confirms are awaited together.

type Live = { model: ChannelModel; channel: ConfirmChannel; returned: Set<string> };

/** A persistent message whose messageId is the event id. */
function properties(e: SinkEvent) {
  return {
    persistent: true,
    mandatory: true,
    messageId: e.id,
    type: e.type,
    contentType: "application/json",
    timestamp: Math.floor(e.createdAt.getTime() / 1000),
    headers: { "job-id": e.jobId, outcome: e.outcome },
  };
}

/** A full write buffer: wait until it drains, or the channel closes (its confirms then fail). */
function drained(channel: ConfirmChannel): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      channel.off("drain", done);
      channel.off("close", done);
      resolve();
    };
    channel.on("drain", done);
    channel.on("close", done);
  });
}

export function rabbitmqSink(config: SinkConfig<"rabbitmq">, opts: SinkOptions): Sink {
  let live: Promise<Live> | null = null;
  let closed = false;

  const open = () =>
    (live ??= (async () => {
      const model = await amqp.connect(config.url, { timeout: opts.timeoutMs, ...amqpGuardedLookup(opts.guard) });
      const drop = () => {
        live = null;
      };
      model.on("error", () => undefined);
      model.on("close", drop);
      try {
        const channel = await model.createConfirmChannel();
        const returned = new Set<string>();
        channel.on("error", () => undefined);
        channel.on("close", () => {
          drop();
          model.close().catch(() => undefined);
        });
        channel.on("return", (msg: { properties: { messageId?: string } }) => {
          if (msg.properties.messageId) returned.add(msg.properties.messageId);
        });
        return { model, channel, returned };
      } catch (err) {
        await model.close().catch(() => undefined);
        throw err;
      }
    })().catch((err) => {
      live = null;
      throw err;
    }));

  return {
    async check() {
      const { model } = await open();
      if (config.exchange === "") return;
      // A failed check closes the channel it ran on: use one of its own.
      const ch = await model.createChannel();
      ch.on("error", () => undefined);
      try {
        await ch.checkExchange(config.exchange);
      } finally {
        await ch.close().catch(() => undefined);
      }
    },
    async deliverMany(events: SinkEvent[]) {
      const unroutable = () =>
        new Error(`unroutable: no queue is bound to exchange "${config.exchange}" for "${config.routingKey}"`);
      if (closed) throw new Error("sink closed");
      if (events.length === 0) return [];
      const { channel, returned } = await open();
      for (const e of events) returned.delete(e.id);
      // Every message published, then every confirm awaited: one round trip for the batch, not one each.
      const confirms: Promise<Error | null>[] = [];
      for (const e of events) {
        let written = true;
        confirms.push(
          new Promise<Error | null>((resolve) => {
            try {
              written = channel.publish(config.exchange, config.routingKey, Buffer.from(e.body), properties(e), (err) =>
                // The broker returns an unroutable message before it confirms it.
                resolve(err ? asError(err) : returned.delete(e.id) ? unroutable() : null),
              );
            } catch (err) {
              resolve(asError(err));
            }
          }),
        );
        if (!written) await drained(channel);
      }
      return Promise.all(confirms);
    },
    async close() {
      closed = true;
      const l = live;
      live = null;
      if (l) await (await l.catch(() => null))?.model.close().catch(() => undefined);
    },
  };
}
