import "server-only";
import { Redis, type ChainableCommander, type RedisOptions } from "ioredis";
import type { SinkConfig } from "../sink-config";
import { redisGuardedConnector } from "./guard";
import { asError, type Sink, type SinkEvent, type SinkOptions } from "./types";

// Redis: XADD to the stream guarded by SET NX of `{stream}:event:{event id}`, both in one atomic step
// on the server. MULTI alone cannot make XADD depend on SET NX's answer, so the step is a script
// (Redis runs a script as one transaction, like MULTI/EXEC): a re-delivery finds the key set and adds
// nothing. A script is not rolled back on error, so an XADD that fails (a key of the wrong type, out of
// memory) removes the guard it just set: the retry must not find the event "delivered". The key
// expires after DEDUPE_SECONDS, well past any retry window (docs/sinks.md). A batch pipelines the
// scripts: one round trip, an answer per event.

export const DEDUPE_SECONDS = 30 * 24 * 3600;

const SCRIPT = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return false end
local added = redis.pcall('XADD', KEYS[2], '*', 'id', ARGV[1], 'type', ARGV[3], 'job_id', ARGV[4], 'outcome', ARGV[5], 'body', ARGV[6])
if type(added) == 'table' and added.err then
  redis.call('DEL', KEYS[1])
  return redis.error_reply(added.err)
end
return added`;

/** The script as ioredis adds it to a pipeline (defineCommand below). */
type ScriptPipeline = ChainableCommander & {
  tallyAdd(
    key: string,
    stream: string,
    id: string,
    ttl: number,
    type: string,
    jobId: string,
    outcome: string,
    body: string,
  ): ChainableCommander;
};

/**
 * The client's connection options, built from the URL's parts alone. Given the URL, ioredis takes any
 * option from its query string, over the ones passed beside it: `?Connector=&path=/run/redis.sock` put
 * its own, unguarded connector on a Unix socket. The config's schema refuses query options too.
 */
export function redisConnection(url: string): RedisOptions {
  const u = new URL(url);
  if (!/^\/?\d{0,5}$/.test(u.pathname)) throw new Error("url path must be a database number (redis://host:6379/0)");
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : 6379,
    ...(u.username || u.password
      ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) }
      : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

export function redisSink(config: SinkConfig<"redis">, opts: SinkOptions): Sink {
  const guarded = redisGuardedConnector(opts.guard);
  const client = new Redis({
    ...redisConnection(config.url),
    lazyConnect: true,
    connectTimeout: opts.timeoutMs,
    commandTimeout: opts.timeoutMs,
    // A sink that is down fails the attempt at once (the outbox retries it), rather than queueing here.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (n) => Math.min(n * 100, 1_000),
    connectionName: "tally-sink",
    ...guarded,
  });
  // ioredis chooses its connector from its options: the guarded one must be the one it uses. `connector`
  // is private in ioredis's types, hence the cast.
  const connector = (client as unknown as { connector: unknown }).connector;
  if (guarded.Connector && !(connector instanceof guarded.Connector)) {
    client.disconnect();
    throw new Error("the redis client would not connect through the address guard");
  }
  // ioredis rejects a failed connect with "Connection is closed."; the attempt records why it closed.
  let lastError: Error | null = null;
  client.on("error", (err: Error) => (lastError = err));
  client.defineCommand("tallyAdd", { numberOfKeys: 2, lua: SCRIPT });
  // One connect for the deliveries that start together (the others would find it "connecting" and,
  // with no offline queue, fail); after that, a lost connection fails fast while ioredis reconnects.
  let connecting: Promise<void> | null = null;
  const connected = async () => {
    if (!connecting && (client.status === "wait" || client.status === "end")) {
      lastError = null;
      connecting = client
        .connect()
        .catch((err: unknown) => {
          throw lastError ?? err;
        })
        .finally(() => (connecting = null));
    }
    if (connecting) await connecting;
  };
  return {
    async check() {
      await connected();
      await client.ping();
    },
    async deliverMany(events: SinkEvent[]) {
      if (events.length === 0) return [];
      await connected();
      // One round trip: the scripts pipelined, each with its own answer.
      const pipeline = client.pipeline() as ScriptPipeline;
      for (const e of events)
        pipeline.tallyAdd(
          `${config.stream}:event:${e.id}`,
          config.stream,
          e.id,
          DEDUPE_SECONDS,
          e.type,
          e.jobId,
          e.outcome,
          e.body,
        );
      const answers = await pipeline.exec();
      return events.map((_, i) => {
        const answer = answers?.[i];
        if (!answer) return new Error("no answer from redis");
        return answer[0] ? asError(answer[0]) : null;
      });
    },
    async close() {
      client.disconnect();
    },
  };
}
