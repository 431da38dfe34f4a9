import { sinkConfigSchemas, type DestinationType, type SinkType } from "./sink-config";

// The Outbound page's form for a sink: which fields a type has and which must be filled come from its
// config schema (sink-config.ts stays the one source of truth); this adds the words, which fields are
// credentials (password inputs), and builds the config from what was typed. A connection URL's password
// has a field of its own and is put into the URL here, percent-encoded, so the URL field never shows it.
// Plain module: the page imports it.

export type SinkField = {
  /** The config key; `password` is the connection URL's password, which the config carries inside `url`. */
  key: string;
  label: string;
  input: "text" | "password" | "checkbox";
  /** Must not be empty (a field that may be empty, like S3's prefix, is sent as ""). */
  required: boolean;
  /** May be left out of the config altogether when empty (S3's endpoint). */
  optional: boolean;
  placeholder?: string;
  /** Spans the form's width (URLs). */
  wide?: boolean;
};

export type SinkFormValues = Record<string, string | boolean>;

export const DESTINATION_TYPE_LABELS: Record<DestinationType, string> = {
  webhook: "Webhook (signed HTTP POST)",
  postgres: "PostgreSQL table",
  mysql: "MySQL / MariaDB table",
  s3: "S3 bucket (or S3-compatible)",
  rabbitmq: "RabbitMQ exchange",
  nats: "NATS JetStream subject",
  redis: "Redis stream",
};

/** What each type does with an event, in a line (docs/sinks.md has the whole of it). */
export const SINK_TYPE_HINTS: Record<SinkType, string> = {
  postgres:
    "One row per result, upserted on (job_id, item_key); other events in {table}_events. Tables are created when missing.",
  mysql:
    "One row per result, upserted on (job_id, item_key); other events in {table}_events. Tables are created when missing.",
  s3: "One object per event at {prefix}/{yyyy}/{mm}/{dd}/{type}/{webhook-id}.json; a re-delivery overwrites it.",
  rabbitmq:
    "A persistent message per event, messageId = the event id; bind a durable queue and deduplicate by messageId.",
  nats: "A JetStream message per event with Nats-Msg-Id = the event id; a stream must capture the subject.",
  redis: "XADD to the stream, once per event id (a guard key drops a re-delivery).",
};

type Words = { label: string; placeholder?: string; secret?: true; wide?: true };

const URL_EXAMPLES: Partial<Record<SinkType, string>> = {
  postgres: "postgresql://loader@db.internal:5432/analytics",
  mysql: "mysql://loader@db.internal:3306/analytics",
  rabbitmq: "amqp://tally@mq.internal:5672/vhost",
  nats: "nats://nats.internal:4222",
  redis: "redis://redis.internal:6379/0",
};

const WORDS: Record<string, Words> = {
  table: { label: "Table", placeholder: "scrapes" },
  endpoint: { label: "Endpoint (optional: AWS when empty)", placeholder: "https://minio.internal:9000", wide: true },
  region: { label: "Region", placeholder: "eu-central-1" },
  bucket: { label: "Bucket", placeholder: "scrapes" },
  prefix: { label: "Key prefix (may be empty)", placeholder: "tally/events" },
  accessKeyId: { label: "Access key ID", secret: true },
  secretAccessKey: { label: "Secret access key", secret: true },
  forcePathStyle: { label: "Path-style addressing (most S3-compatible servers)" },
  exchange: { label: 'Exchange ("" is the default exchange)', placeholder: "tally.events" },
  routingKey: { label: "Routing key", placeholder: "results" },
  subject: { label: "Subject", placeholder: "tally.events" },
  stream: { label: "Stream", placeholder: "tally:events" },
};

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

/** The fields of a sink type's form, in its schema's order; a URL is followed by its password. */
export function sinkFormFields(type: SinkType): SinkField[] {
  const shape = sinkConfigSchemas[type].shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  return Object.entries(shape).flatMap(([key, schema]): SinkField[] => {
    if (key === "url")
      return [
        {
          key,
          label: "Connection URL",
          input: "text",
          required: true,
          optional: false,
          wide: true,
          placeholder: URL_EXAMPLES[type],
        },
        { key: "password", label: "Password (optional)", input: "password", required: false, optional: true },
      ];
    const words = WORDS[key] ?? { label: key };
    const checkbox = accepts(schema, true) && !accepts(schema, "x");
    const optional = accepts(schema, undefined);
    return [
      {
        key,
        label: words.label,
        input: checkbox ? "checkbox" : words.secret ? "password" : "text",
        required: !checkbox && !optional && !accepts(schema, ""),
        optional,
        ...(words.placeholder ? { placeholder: words.placeholder } : {}),
        ...(words.wide ? { wide: true } : {}),
      },
    ];
  });
}

/** The config to send for what the form holds: trimmed, empty optional fields left out, the password put into the URL. */
export function sinkConfigFromForm(type: SinkType, values: SinkFormValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const f of sinkFormFields(type)) {
    if (f.key === "password") continue;
    const v = values[f.key];
    if (f.input === "checkbox") {
      if (v === true) config[f.key] = true;
      continue;
    }
    const text = typeof v === "string" ? v.trim() : "";
    if (text === "" && f.optional) continue;
    config[f.key] = text;
  }
  const password = typeof values.password === "string" ? values.password : "";
  if (password && typeof config.url === "string" && URL.canParse(config.url)) {
    const u = new URL(config.url);
    u.password = password;
    config.url = u.toString();
  }
  return config;
}
