// The proxy's hand-over of the signed-in principal: only this process can make one, only for a moment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, setConfigForTests } from "@/lib/config";
import type { Principal } from "./principal";
import { decodeForwarded, encodeForwarded } from "./resolve";

const ana: Principal = {
  kind: "user",
  userId: "u1",
  email: "ana@example.com",
  name: "Ana",
  role: "operator",
  sessionId: "s1",
};
const withKey = (key: string) => setConfigForTests(parseConfig({ NODE_ENV: "test", TALLY_SESSION_SECRET: key }));

beforeAll(() => withKey("k".repeat(40)));
afterAll(() => setConfigForTests(undefined));

describe("the forwarded principal", () => {
  it("round-trips within its few seconds", () => {
    const now = Date.now();
    expect(decodeForwarded(encodeForwarded(ana, now), now + 1000)).toEqual(ana);
  });

  it("is refused when stale, altered, signed with another key, or malformed", () => {
    const now = Date.now();
    const value = encodeForwarded(ana, now);
    expect(decodeForwarded(value, now + 31_000)).toBeNull();
    const [payload, mac] = value.split(".");
    const promoted = Buffer.from(JSON.stringify({ p: { ...ana, role: "admin" }, t: now })).toString("base64url");
    expect(decodeForwarded(`${promoted}.${mac}`, now)).toBeNull();
    expect(decodeForwarded(`${payload}.${mac.slice(1)}x`, now)).toBeNull();
    for (const junk of ["", ".", "abc", `${payload}.`, `.${mac}`]) expect(decodeForwarded(junk, now)).toBeNull();
    withKey("o".repeat(40));
    expect(decodeForwarded(value, now)).toBeNull();
    withKey("k".repeat(40));
  });
});
