// The logger: JSON lines through pino, secrets redacted by path, the request id on every line written
// inside withRequestId (across awaits), child loggers' fields on each of their lines.
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { log, requestIdFrom, setLogDestinationForTests, setLogLevel, withRequestId } from "@/lib/log";

function capture(): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  setLogDestinationForTests(
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString("utf8").split("\n"))
          if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    }),
  );
  return lines;
}
afterEach(() => setLogDestinationForTests(undefined));

describe("log", () => {
  it("writes one JSON object per line with level, time and message", () => {
    const lines = capture();
    log.info("hello", { n: 1 });
    log.warn("careful");
    expect(lines).toEqual([
      expect.objectContaining({ level: "info", msg: "hello", n: 1, time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }),
      expect.objectContaining({ level: "warn", msg: "careful" }),
    ]);
  });

  it("redacts secrets by path, at the top level and one level down", () => {
    const lines = capture();
    log.info("config", {
      secret: "s3cr3t-a",
      token: "tok-b",
      apiKey: "key-c",
      headers: { authorization: "Bearer tok-d", "x-api-key": "key-e" },
      destination: { secret: "s3cr3t-f" },
      keep: "visible",
    });
    const text = JSON.stringify(lines);
    for (const s of ["s3cr3t-a", "tok-b", "key-c", "tok-d", "key-e", "s3cr3t-f"]) expect(text).not.toContain(s);
    expect(lines[0]).toMatchObject({
      secret: "[redacted]",
      headers: { authorization: "[redacted]" },
      destination: { secret: "[redacted]" },
      keep: "visible",
    });
  });

  it("puts the request id on every line inside withRequestId, across awaits, and nowhere else", async () => {
    const lines = capture();
    await withRequestId("req-1", async () => {
      log.info("first");
      await new Promise((r) => setTimeout(r, 5));
      log.child({ runId: "run-9" }).info("second");
    });
    log.info("outside");
    expect(lines.map((l) => [l.msg, l.requestId, l.runId])).toEqual([
      ["first", "req-1", undefined],
      ["second", "req-1", "run-9"],
      ["outside", undefined, undefined],
    ]);
  });

  it("keeps a sane X-Request-Id and replaces anything else", () => {
    expect(requestIdFrom("abc-123._:x")).toBe("abc-123._:x");
    for (const bad of [null, "", "has space", "x".repeat(129), 'quote"', "new\nline"])
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("honours the level", () => {
    const lines = capture();
    log.debug("hidden");
    setLogLevel("debug");
    log.debug("shown");
    expect(lines.map((l) => l.msg)).toEqual(["shown"]);
  });
});
