import { describe, expect, it } from "vitest";
import { PlatformNotFound, RateLimited, PlatformError, Upstream } from "./errors";

describe("scraper errors across module copies", () => {
  it("instanceof holds for an error built by another copy of this module", async () => {
    // A second, independent copy of the module, as Next's separate bundles load it.
    const copy: typeof import("./errors") = await import(/* @vite-ignore */ `./errors?copy=${Date.now()}`);
    const foreign = new copy.RateLimited({
      status: 429,
      code: "RATE_LIMITED",
      message: "slow down",
      retryAfterMs: 1000,
    });
    expect(copy.RateLimited).not.toBe(RateLimited); // really another copy
    expect(foreign instanceof RateLimited).toBe(true);
    expect(foreign instanceof PlatformError).toBe(true);
    expect(foreign instanceof PlatformNotFound).toBe(false);
    expect(foreign instanceof Error).toBe(true);
    expect(foreign.name).toBe("RateLimited");
  });

  it("subclass checks stay exact", () => {
    const e = new Upstream({ status: 503, code: "X", message: "down", retryable: true });
    expect(e instanceof Upstream).toBe(true);
    expect(e instanceof PlatformError).toBe(true);
    expect(e instanceof RateLimited).toBe(false);
    expect({ code: "X" } instanceof PlatformError).toBe(false);
    expect(new Error("plain") instanceof PlatformError).toBe(false);
  });
});
