// The address guard (issue 27, finding 2): every spelling of a loopback, private, link-local, unspecified
// or metadata address is refused unless allowed; Tally itself and the simulator's controls never; and the
// check applies to the address actually connected to, so a name whose DNS answer turns private later
// (rebinding) is refused at connect time while the sink it would reach sees nothing.
import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSink, type Sink } from "@/lib/outbound/test-sink";
import {
  addressRefusal,
  checkDestinationUrl,
  guardedPost,
  parseAllowance,
  RefusedAddress,
  type GuardContext,
} from "./address-guard";

let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
});
afterAll(() => sink?.close());

const none = parseAllowance(undefined);
const ctx = (allow?: string, resolve?: GuardContext["resolve"]): GuardContext => ({
  allowance: parseAllowance(allow),
  selfOrigins: ["https://tally.example", "http://127.0.0.1:3000"],
  selfPort: 3000,
  resolve,
});
const answers =
  (map: Record<string, string[]>): NonNullable<GuardContext["resolve"]> =>
  async (host) => {
    const list = map[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return list.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const HOSTILE = [
  "http://127.0.0.1/",
  "http://127.0.0.2:8080/",
  "http://localhost:4010/",
  "http://LOCALHOST./",
  "http://api.localhost/",
  "http://0.0.0.0:9000/",
  "http://0/",
  "http://[::1]:3001/",
  "http://[::]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fd00:ec2::254]/",
  "http://2130706433/",
  "http://127.1/",
  "http://0x7f.1/",
  "http://017700000001/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://10.0.0.5/",
  "http://172.16.3.4/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://[fe80::1]/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  // IPv6 forms that carry an IPv4 address a gateway or tunnel would reach (issue 38), and site-local.
  "http://[64:ff9b::7f00:1]/",
  "http://[64:ff9b::169.254.169.254]/",
  "http://[64:ff9b::a00:5]/",
  "http://[64:ff9b:1::a00:5]/",
  "http://[2002:7f00:1::]/",
  "http://[2002:a9fe:a9fe::1]/",
  "http://[2002:c0a8:101:1::1]/",
  "http://[::127.0.0.1]/",
  "http://[::a9fe:a9fe]/",
  "http://[::10.0.0.5]/",
  "http://[fec0::1]/",
  "http://[feff::1]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
];

describe("addresses", () => {
  it.each(HOSTILE)("refuses %s when it is saved", async (url) => {
    await expect(checkDestinationUrl(url, ctx())).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^Refused destination URL: /),
    });
  });

  it("accepts public addresses, and names that do not resolve yet (the connect-time check still applies)", async () => {
    for (const url of [
      "https://93.184.216.34/hook",
      "https://[2606:4700::1111]/",
      "https://not-yet.example/x",
      // A public IPv4 address behind NAT64 (an IPv6-only network's DNS64 answers these) or 6to4.
      "https://[64:ff9b::5db8:d822]/",
      "https://[2002:5db8:d822::1]/",
    ])
      await expect(checkDestinationUrl(url, ctx(undefined, answers({})))).resolves.toBeUndefined();
    expect(addressRefusal("8.8.8.8", none)).toBeNull();
  });

  it("refuses a name whose DNS answer is private, even one private answer among public ones", async () => {
    const resolve = answers({ "inside.example": ["127.0.0.1"], "mixed.example": ["93.184.216.34", "10.1.1.1"] });
    await expect(checkDestinationUrl("https://inside.example/", ctx(undefined, resolve))).rejects.toThrow(
      /inside\.example resolves to 127\.0\.0\.1/,
    );
    await expect(checkDestinationUrl("https://mixed.example/", ctx(undefined, resolve))).rejects.toThrow(/10\.1\.1\.1/);
  });

  it("allows exactly what TALLY_ALLOW_PRIVATE_DESTINATIONS lists, or everything private with `all`", async () => {
    const allow = parseAllowance("127.0.0.1, 10.0.0.0/8");
    expect(addressRefusal("127.0.0.1", allow)).toBeNull();
    expect(addressRefusal("::ffff:7f00:1", allow)).toBeNull();
    expect(addressRefusal("10.200.1.1", allow)).toBeNull();
    expect(addressRefusal("127.0.0.2", allow)).toMatch(/private/);
    expect(addressRefusal("169.254.169.254", allow)).toMatch(/private/);
    expect(addressRefusal("::1", allow)).toMatch(/private/);
    // An address that carries an allowed IPv4 one is allowed as that one; the rest of its kind is not.
    expect(addressRefusal("64:ff9b::7f00:1", allow)).toBeNull();
    expect(addressRefusal("2002:a00:1::", allow)).toBeNull();
    expect(addressRefusal("64:ff9b::7f00:2", allow)).toMatch(/64:ff9b::7f00:2 carries 127\.0\.0\.2, a private/);
    expect(addressRefusal("169.254.169.254", parseAllowance("all"))).toBeNull();
    for (const bad of ["127.0.0.1/33", "nope", "10.0.0.0/8/1", "::1/129"]) expect(() => parseAllowance(bad)).toThrow();
  });

  it("never allows Tally itself or the simulator's control routes, whatever the allowance", async () => {
    for (const url of [
      "https://tally.example/api/jobs",
      "http://127.0.0.1:3000/webhooks/geonode",
      "http://localhost:3000/",
      "http://127.0.0.1:4010/_sim/config",
    ])
      await expect(checkDestinationUrl(url, ctx("all")), url).rejects.toThrow(/Tally itself|simulator/);
  });
});

describe("the connect-time check", () => {
  const send = (url: string, guard: GuardContext) =>
    guardedPost(url, { headers: {}, body: "{}", signal: AbortSignal.timeout(5000), guard });

  it("refuses a name that resolved publicly when saved and resolves to loopback when sent (rebinding)", async () => {
    let calls = 0;
    const rebinding: NonNullable<GuardContext["resolve"]> = async () => [
      { address: calls++ === 0 ? "93.184.216.34" : "127.0.0.1", family: 4 },
    ];
    const url = `http://rebind.example:${sink.port}/hook`;
    await expect(checkDestinationUrl(url, ctx(undefined, rebinding))).resolves.toBeUndefined();
    const before = sink.requests.length;
    await expect(send(url, ctx(undefined, rebinding))).rejects.toBeInstanceOf(RefusedAddress);
    await expect(send(sink.url, ctx())).rejects.toThrow(/127\.0\.0\.1 is a private/);
    expect(sink.requests.length).toBe(before);
  });

  it("connects to the resolved address when it is allowed", async () => {
    const res = await send(
      `http://sink.example:${sink.port}/hook`,
      ctx("127.0.0.1", answers({ "sink.example": ["127.0.0.1"] })),
    );
    res.body.destroy();
    expect(res.status).toBe(200);
    expect(sink.requests.at(-1)?.body).toBe("{}");
  });
});
