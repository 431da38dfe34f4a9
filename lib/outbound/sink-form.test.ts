// The Outbound page's sink form follows the config schemas: every field of every type is in the form,
// filled where the schema insists, and what the form builds is what the schema accepts, with the URL's
// password inside the URL (percent-encoded) and empty optional fields left out.
import { describe, expect, it } from "vitest";
import { maskedConfig, maskPath, maskUrl, shownUrl, SINK_TYPES, sinkConfigSchemas, sinkTarget } from "./sink-config";
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

describe("what is shown of a URL with a key in it (issue 38)", () => {
  it("masks a path from its first segment that is not a plain word: Slack, Discord, Zapier", () => {
    expect(maskPath("/services/T0A1B2C3D/B0E1F2G3H/XyZ0aB1cD2eF3gH4iJ5kL6mN")).toBe("/services/••••L6mN");
    expect(
      maskPath("/api/webhooks/112233445566778899/AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789_abcdefghijklmnopqrstuvwxyzABCD"),
    ).toBe("/api/webhooks/••••ABCD");
    expect(maskPath("/hooks/catch/123456/abc1de2/")).toBe("/hooks/catch/••••");
    expect(maskPath("/tally/webhook-events")).toBe("/tally/webhook-events");
    expect(shownUrl("https://u:p@hooks.example/in/Secret123456?token=abc#frag")).toBe(
      "https://••••@hooks.example/in/••••3456?token=••••",
    );
  });

  it("masks S3's endpoint in the config and the target", () => {
    const config = {
      endpoint: "https://key:secret@gw.example/tenant/0123456789abcdef?X-Amz-Signature=sig",
      region: "us-east-1",
      bucket: "scrapes",
      prefix: "",
      accessKeyId: "AKIAABCDEFGHIJKLMNOP",
      secretAccessKey: "very-secret-access-key-0000",
    };
    for (const shown of [JSON.stringify(maskedConfig("s3", config)), sinkTarget("s3", config)]) {
      for (const secret of ["key:", "secret@", "0123456789ab", "sig"]) expect(shown, shown).not.toContain(secret);
      expect(shown).toContain("gw.example/tenant/••••cdef");
    }
  });
});
