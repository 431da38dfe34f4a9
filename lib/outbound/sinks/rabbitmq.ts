import "server-only";
import amqp, { type ChannelModel, type ConfirmChannel } from "amqplib";
import type { SinkConfig } from "../sink-config";
import { amqpGuardedLookup } from "./guard";
import type { Sink, SinkEvent, SinkOptions } from "./types";

// RabbitMQ: a persistent message per event with messageId = the event id, published mandatory on a
// confirm channel; counted delivered only after the broker's publisher confirm, and refused when the
// broker returns it unroutable (no queue bound: it would be dropped). Consumers deduplicate by
// messageId (the broker does not): exactly once in effect. A closed connection is re-opened on the next
// delivery.

type Live = { model: ChannelModel; channel: ConfirmChannel; returned: Set<string> };

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
    async deliver(e: SinkEvent) {
      if (closed) throw new Error("sink closed");
      const { channel, returned } = await open();
      returned.delete(e.id);
      await new Promise<void>((resolve, reject) => {
        channel.publish(
          config.exchange,
          config.routingKey,
          Buffer.from(e.body),
          {
            persistent: true,
            mandatory: true,
            messageId: e.id,
            type: e.type,
            contentType: "application/json",
            timestamp: Math.floor(e.createdAt.getTime() / 1000),
            headers: { "job-id": e.jobId, outcome: e.outcome },
          },
          (err) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
        );
      });
      if (returned.delete(e.id))
        throw new Error(`unroutable: no queue is bound to exchange "${config.exchange}" for "${config.routingKey}"`);
    },
    async close() {
      closed = true;
      const l = live;
      live = null;
      if (l) await (await l.catch(() => null))?.model.close().catch(() => undefined);
    },
  };
}
