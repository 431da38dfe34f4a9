// The Outbound page's sink form follows the config schemas: every field of every type is in the form,
// filled where the schema insists, and what the form builds is what the schema accepts, with the URL's
// password inside the URL (percent-encoded) and empty optional fields left out.
import { describe, expect, it } from "vitest";
import { maskUrl, SINK_TYPES, sinkConfigSchemas } from "./sink-config";
import { sinkConfigFromForm, sinkFormFields } from "./sink-form";

describe("the sink form", () => {
  it("has a field for every config key of every type, and a password beside each URL", () => {
    for (const type of SINK_TYPES) {
      const keys = sinkFormFields(type).map((f) => f.key);
      const schemaKeys = Object.keys(sinkConfigSchemas[type].shape);
      expect(
        keys.filter((k) => k !== "password"),
        type,
      ).toEqual(schemaKeys);
      expect(keys.includes("password"), type).toBe(schemaKeys.includes("url"));
    }
  });

  it("asks for what the schema requires, lets S3's prefix and endpoint be empty, and hides credentials", () => {
    const s3 = Object.fromEntries(sinkFormFields("s3").map((f) => [f.key, f]));
    expect(s3.bucket).toMatchObject({ required: true, optional: false, input: "text" });
    expect(s3.prefix).toMatchObject({ required: false, optional: false });
    expect(s3.endpoint).toMatchObject({ required: false, optional: true });
    expect(s3.forcePathStyle).toMatchObject({ input: "checkbox", required: false, optional: true });
    expect(s3.secretAccessKey.input).toBe("password");
    expect(s3.accessKeyId.input).toBe("password");
    const pg = Object.fromEntries(sinkFormFields("postgres").map((f) => [f.key, f]));
    expect(pg.url).toMatchObject({ input: "text", required: true });
    expect(pg.password).toMatchObject({ input: "password", required: false });
  });

  it("builds a config the schema accepts, the password inside the URL", () => {
    const config = sinkConfigFromForm("postgres", {
      url: " postgresql://loader@db.internal:5432/analytics ",
      password: "p@ss:w/rd 1",
      table: "scrapes",
    });
    const parsed = sinkConfigSchemas.postgres.parse(config);
    expect(decodeURIComponent(new URL(parsed.url).password)).toBe("p@ss:w/rd 1");
    expect(new URL(parsed.url).username).toBe("loader");
    expect(maskUrl(parsed.url)).toBe("postgresql://loader:••••@db.internal:5432/analytics");
    // No password typed: the URL is sent as written.
    expect(sinkConfigFromForm("redis", { url: "redis://r.internal:6379", password: "", stream: "s" })).toEqual({
      url: "redis://r.internal:6379",
      stream: "s",
    });
  });

  it("leaves empty optional fields out, keeps a prefix or exchange that may be empty", () => {
    const s3 = sinkConfigFromForm("s3", {
      endpoint: "  ",
      region: "eu-central-1",
      bucket: "scrapes",
      prefix: "",
      accessKeyId: "AKIA0123456789",
      secretAccessKey: "secret-key-0123456789",
      forcePathStyle: false,
    });
    expect(s3).toEqual({
      region: "eu-central-1",
      bucket: "scrapes",
      prefix: "",
      accessKeyId: "AKIA0123456789",
      secretAccessKey: "secret-key-0123456789",
    });
    expect(sinkConfigSchemas.s3.safeParse(s3).success).toBe(true);
    expect(sinkConfigFromForm("s3", { ...s3, endpoint: "http://minio:9000", forcePathStyle: true })).toMatchObject({
      endpoint: "http://minio:9000",
      forcePathStyle: true,
    });
    const rabbit = sinkConfigFromForm("rabbitmq", { url: "amqp://mq", exchange: "", routingKey: "results" });
    expect(rabbit).toEqual({ url: "amqp://mq", exchange: "", routingKey: "results" });
    expect(sinkConfigSchemas.rabbitmq.safeParse(rabbit).success).toBe(true);
  });
});
