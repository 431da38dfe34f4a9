import { describe, expect, it } from "vitest";
import { resolveClientAddress } from "./client-address";

describe("the client's address for the login throttle", () => {
  it("is the connection's address when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    expect(resolveClientAddress("6.6.6.6", "203.0.113.7", 0)).toBe("203.0.113.7");
    expect(resolveClientAddress(undefined, "203.0.113.7", 0)).toBe("203.0.113.7");
  });

  it("is the entry the last trusted proxy appended, not one the client wrote before it", () => {
    // The client sent "6.6.6.6"; the one trusted proxy appended the address it saw.
    expect(resolveClientAddress("6.6.6.6, 198.51.100.4", "10.0.0.2", 1)).toBe("198.51.100.4");
    // Two trusted proxies: the second appended the first's address.
    expect(resolveClientAddress("6.6.6.6, 198.51.100.4, 10.0.0.9", "10.0.0.2", 2)).toBe("198.51.100.4");
  });

  it("falls back to the leftmost entry, then the connection, when the header is short or missing", () => {
    expect(resolveClientAddress("198.51.100.4", "10.0.0.2", 2)).toBe("198.51.100.4");
    expect(resolveClientAddress(" , ", "10.0.0.2", 1)).toBe("10.0.0.2");
    expect(resolveClientAddress(null, undefined, 1)).toBe("unknown");
  });
});
