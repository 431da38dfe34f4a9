import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  defaultHmacScheme,
  defaultStandardScheme,
  signDelivery,
  standardKeyBytes,
  verifyDelivery,
  type HmacScheme,
} from "./signature";

const body = Buffer.from(JSON.stringify({ event: "extract_completed", data: { job_id: "j1" } }));
const ctx = { id: "msg_1", timestamp: 1_700_000_000 };
const now = ctx.timestamp + 10;
const h = (rec: Record<string, string>) => new Headers(rec);

describe("hmac scheme (default)", () => {
  it("signs lowercase hex HMAC-SHA256 of the raw body in X-Webhook-Signature", () => {
    const headers = signDelivery(defaultHmacScheme, "s3cret", body, ctx);
    const expected = createHmac("sha256", "s3cret").update(body).digest("hex");
    expect(headers).toEqual({ "X-Webhook-Signature": expected });
  });

  it("round-trips and reports which secret matched", () => {
    const headers = h(signDelivery(defaultHmacScheme, "s3cret", body, ctx));
    expect(verifyDelivery(defaultHmacScheme, ["s3cret"], body, headers, now)).toEqual({ ok: true, secretIndex: 0 });
    expect(verifyDelivery(defaultHmacScheme, ["new", "s3cret"], body, headers, now)).toEqual({
      ok: true,
      secretIndex: 1,
    });
  });

  it("accepts an optional sha256= prefix and an upper-case digest", () => {
    const hex = createHmac("sha256", "k").update(body).digest("hex");
    for (const value of ["sha256=" + hex, hex.toUpperCase(), ` ${hex} `]) {
      const res = verifyDelivery(defaultHmacScheme, ["k"], body, h({ "x-webhook-signature": value }), now);
      expect(res.ok, value).toBe(true);
    }
  });

  it("signs with a configured prefix, sha512 and base64", () => {
    const scheme: HmacScheme = { kind: "hmac", header: "X-Sig", algorithm: "sha512", encoding: "base64", prefix: "v=" };
    const headers = signDelivery(scheme, "k", body, ctx);
    expect(headers["X-Sig"]).toBe("v=" + createHmac("sha512", "k").update(body).digest("base64"));
    expect(verifyDelivery(scheme, ["k"], body, h(headers), now)).toEqual({ ok: true, secretIndex: 0 });
  });

  it("rejects a wrong secret, a tampered body and malformed or missing headers", () => {
    const headers = h(signDelivery(defaultHmacScheme, "right", body, ctx));
    expect(verifyDelivery(defaultHmacScheme, ["wrong"], body, headers, now)).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] ^= 1;
    expect(verifyDelivery(defaultHmacScheme, ["right"], tampered, headers, now).ok).toBe(false);
    expect(verifyDelivery(defaultHmacScheme, ["right"], body, h({}), now)).toEqual({
      ok: false,
      reason: "missing_signature",
    });
    for (const bad of ["abc", "zz".repeat(32), "a".repeat(65)]) {
      const res = verifyDelivery(defaultHmacScheme, ["right"], body, h({ "X-Webhook-Signature": bad }), now);
      expect(res).toEqual({ ok: false, reason: "malformed_signature" });
    }
    expect(verifyDelivery(defaultHmacScheme, [], body, headers, now)).toEqual({ ok: false, reason: "no_secrets" });
  });

  it("treats a whsec_ secret as plain UTF-8 (the article's scheme)", () => {
    const secret = "whsec_" + Buffer.from("raw-key").toString("base64");
    const headers = signDelivery(defaultHmacScheme, secret, body, ctx);
    expect(headers["X-Webhook-Signature"]).toBe(createHmac("sha256", secret).update(body).digest("hex"));
  });

  it("signs strings and bytes identically", () => {
    const text = body.toString("utf8");
    expect(signDelivery(defaultHmacScheme, "k", text, ctx)).toEqual(signDelivery(defaultHmacScheme, "k", body, ctx));
  });
});

describe("standard webhooks scheme", () => {
  const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");

  it("signs id.timestamp.body with the base64-decoded whsec_ key", () => {
    const headers = signDelivery(defaultStandardScheme, secret, body, ctx);
    const key = Buffer.from("0123456789abcdef0123456789abcdef");
    const expected = createHmac("sha256", key).update(`${ctx.id}.${ctx.timestamp}.${body.toString()}`).digest("base64");
    expect(headers).toEqual({
      "webhook-id": "msg_1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": "v1," + expected,
    });
    expect(standardKeyBytes("plain")).toEqual(Buffer.from("plain"));
  });

  it("round-trips, with a previous/current secret list", () => {
    const headers = h(signDelivery(defaultStandardScheme, secret, body, ctx));
    expect(verifyDelivery(defaultStandardScheme, [secret], body, headers, now)).toEqual({ ok: true, secretIndex: 0 });
    expect(verifyDelivery(defaultStandardScheme, ["whsec_b3RoZXI=", secret], body, headers, now)).toEqual({
      ok: true,
      secretIndex: 1,
    });
    expect(verifyDelivery(defaultStandardScheme, ["whsec_b3RoZXI="], body, headers, now)).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
  });

  it("accepts any matching signature among several in one header", () => {
    const good = signDelivery(defaultStandardScheme, secret, body, ctx)["webhook-signature"];
    const other = signDelivery(defaultStandardScheme, "whsec_b3RoZXI=", body, ctx)["webhook-signature"];
    const headers = h({
      "webhook-id": ctx.id,
      "webhook-timestamp": String(ctx.timestamp),
      "webhook-signature": `v2,xyz ${other} ${good}`,
    });
    expect(verifyDelivery(defaultStandardScheme, [secret], body, headers, now)).toEqual({ ok: true, secretIndex: 0 });
  });

  it("rejects a tampered body, a changed id and timestamps outside the tolerance", () => {
    const signed = signDelivery(defaultStandardScheme, secret, body, ctx);
    expect(verifyDelivery(defaultStandardScheme, [secret], Buffer.from(body.toString() + " "), h(signed), now).ok).toBe(
      false,
    );
    expect(verifyDelivery(defaultStandardScheme, [secret], body, h({ ...signed, "webhook-id": "msg_2" }), now).ok).toBe(
      false,
    );
    const late = verifyDelivery(defaultStandardScheme, [secret], body, h(signed), ctx.timestamp + 301);
    expect(late).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    const early = verifyDelivery(defaultStandardScheme, [secret], body, h(signed), ctx.timestamp - 301);
    expect(early).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(verifyDelivery(defaultStandardScheme, [secret], body, h(signed), ctx.timestamp + 300).ok).toBe(true);
  });

  it("names missing or malformed headers", () => {
    const signed = signDelivery(defaultStandardScheme, secret, body, ctx);
    const without = (name: string) => h(Object.fromEntries(Object.entries(signed).filter(([k]) => k !== name)));
    expect(verifyDelivery(defaultStandardScheme, [secret], body, without("webhook-id"), now)).toEqual({
      ok: false,
      reason: "missing_id",
    });
    expect(verifyDelivery(defaultStandardScheme, [secret], body, without("webhook-timestamp"), now)).toEqual({
      ok: false,
      reason: "missing_timestamp",
    });
    expect(verifyDelivery(defaultStandardScheme, [secret], body, without("webhook-signature"), now)).toEqual({
      ok: false,
      reason: "missing_signature",
    });
    expect(
      verifyDelivery(defaultStandardScheme, [secret], body, h({ ...signed, "webhook-timestamp": "12a" }), now),
    ).toEqual({ ok: false, reason: "invalid_timestamp" });
    expect(
      verifyDelivery(defaultStandardScheme, [secret], body, h({ ...signed, "webhook-signature": "v1,!!" }), now),
    ).toEqual({ ok: false, reason: "malformed_signature" });
  });

  it("uses a non-whsec_ secret's UTF-8 bytes", () => {
    const headers = h(signDelivery(defaultStandardScheme, "plain-secret", body, ctx));
    expect(verifyDelivery(defaultStandardScheme, ["plain-secret"], body, headers, now).ok).toBe(true);
  });
});
