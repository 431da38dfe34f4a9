// An attempt's error as each role reads it (issue 47 item 6): the address guard's refusal and the IP
// addresses in a system error are for admins; a viewer also reads an HTTP answer without its body.
import { describe, expect, it } from "vitest";
import { errorFor, maskAddresses, PLAIN_REFUSAL } from "./error-for";

describe("errorFor", () => {
  const refusal =
    "refused: hooks.internal.example resolves to 10.20.30.40 is a private, loopback, link-local or metadata address (allow it with TALLY_ALLOW_PRIVATE_DESTINATIONS)";

  it("gives admins the whole text and the others a plain refusal", () => {
    expect(errorFor("admin", refusal)).toBe(refusal);
    expect(errorFor("operator", refusal)).toBe(PLAIN_REFUSAL);
    expect(errorFor("viewer", refusal)).toBe(PLAIN_REFUSAL);
    expect(PLAIN_REFUSAL).not.toMatch(/10\.20|hooks\.internal/);
  });

  it("masks the addresses of a system error, keeping the port, for operators and viewers", () => {
    const sink = "connect ECONNREFUSED 10.0.3.7:5432 (ECONNREFUSED)";
    expect(errorFor("admin", sink)).toBe(sink);
    expect(errorFor("operator", sink)).toBe("connect ECONNREFUSED [address]:5432 (ECONNREFUSED)");
    expect(maskAddresses("to [fd00::5]:9000 and fe80::1 and ::ffff:127.0.0.1, not at 12:30:45 or v1.2.3")).toBe(
      "to [address]:9000 and [address] and [address], not at 12:30:45 or v1.2.3",
    );
  });

  it("keeps a viewer's HTTP answer to its status, an operator's whole", () => {
    expect(errorFor("viewer", "HTTP 500: stack at 10.1.1.1")).toBe("HTTP 500");
    expect(errorFor("operator", "HTTP 500: stack at 10.1.1.1")).toBe("HTTP 500: stack at [address]");
    expect(errorFor("viewer", null)).toBeNull();
  });
});
