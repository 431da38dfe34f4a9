import "server-only";
import { sinkConfigSchemas, type SinkConfig, type SinkType } from "../sink-config";
import { mysqlSink } from "./mysql";
import { natsSink } from "./nats";
import { postgresSink } from "./postgres";
import { rabbitmqSink } from "./rabbitmq";
import { redisSink } from "./redis";
import { s3Sink } from "./s3";
import type { Sink, SinkOptions } from "./types";

// The sink of each destination type but webhook (which lib/outbound/send.ts sends), chosen by `type`.

export type { Sink, SinkEvent, SinkResultRow } from "./types";
export { deliverOne, reason } from "./types";
export { postgresDdl } from "./postgres";
export { mysqlDdl } from "./mysql";
export { objectKey } from "./s3";
export { sinkHostRefusal } from "./guard";

const FACTORIES: { [T in SinkType]: (config: SinkConfig<T>, opts: SinkOptions) => Sink } = {
  postgres: postgresSink,
  mysql: mysqlSink,
  s3: s3Sink,
  rabbitmq: rabbitmqSink,
  nats: natsSink,
  redis: redisSink,
};

/** A sink for a config already checked by sinkConfigSchemas (parsed again here: the stored JSON is text). */
export function openSink(type: SinkType, config: unknown, opts: SinkOptions): Sink {
  const parsed = sinkConfigSchemas[type].parse(config);
  return (FACTORIES[type] as (c: unknown, o: SinkOptions) => Sink)(parsed, opts);
}
