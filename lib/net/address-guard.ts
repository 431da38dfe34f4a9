import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { BadRequest } from "../errors";

// Where Tally may connect on an operator's say-so (destinations registered through the API and pages,
// and the sinks of other types: lib/outbound/sinks/guard.ts): never to a private, loopback, link-local,
// unspecified, multicast or cloud-metadata address unless TALLY_ALLOW_PRIVATE_DESTINATIONS allows it,
// never to Tally itself and never to the simulator's control routes. The check runs twice: on the URL when it is saved (a clear
// 400), and on the address actually connected to (a DNS answer that changes later, a rebinding name),
// through the `lookup` hook of the connection, so what is checked is what is connected. Addresses the
// deployer wrote in the environment are not checked here: they are the deployer's choice.

/** Private ranges allowed anyway: `all`, or the CIDRs (and single addresses) TALLY_ALLOW_PRIVATE_DESTINATIONS lists. */
export type Allowance = "all" | BlockList;

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  REFUSED.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback, and IPv4-compatible (::a.b.c.d, deprecated)
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): whatever the network's own translator reaches
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo: a tunnel to an IPv4 address carried obfuscated
  ["fc00::", 7], // unique local (fd00:ec2::254, a metadata address, is here)
  ["fe80::", 10],
  ["fec0::", 10], // site-local (deprecated, still routed by some)
  ["ff00::", 8],
] as const)
  REFUSED.addSubnet(net, prefix, "ipv6");

/** An IPv6 address as its eight 16-bit words (`ip` already known to be IPv6). */
function ipv6Words(ip: string): number[] {
  let s = ip.split("%")[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const words = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return words.map((w) => parseInt(w, 16));
}

/**
 * The IPv4 address an IPv6 one carries for a gateway to reach: NAT64 (64:ff9b::/96, what DNS64 answers on
 * IPv6-only networks) and 6to4 (2002::/16). Checked as that IPv4 address: a public one passes.
 */
function carriedIpv4(ip: string): string | null {
  const w = ipv6Words(ip);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4(w[6], w[7]);
  if (w[0] === 0x2002) return v4(w[1], w[2]);
  return null;
}

/** Parses TALLY_ALLOW_PRIVATE_DESTINATIONS: `all`, or CIDRs and addresses separated by commas. Throws on a bad entry. */
export function parseAllowance(spec: string | undefined): Allowance {
  const list = new BlockList();
  if (!spec) return list;
  if (spec.trim().toLowerCase() === "all") return "all";
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, bits, extra] = entry.split("/");
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
      throw new Error(`"${entry}" is not an address or a CIDR such as 10.0.0.0/8 or fd00::/8`);
    list.addSubnet(addr, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

/** Why Tally will not connect to `ip` (a literal address), or null when it may. */
export function addressRefusal(ip: string, allowance: Allowance): string | null {
  const bare = ip.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (!family) return `${ip} is not an IP address`;
  const type = family === 4 ? "ipv4" : "ipv6";
  const carried = family === 6 ? carriedIpv4(bare) : null;
  if (carried) {
    if (!REFUSED.check(carried, "ipv4")) return null;
    if (allowance === "all" || allowance.check(carried, "ipv4") || allowance.check(bare, "ipv6")) return null;
    return `${bare} carries ${carried}, a private, loopback, link-local or metadata address (allow it with TALLY_ALLOW_PRIVATE_DESTINATIONS)`;
  }
  // BlockList checks an IPv4-mapped IPv6 address (::ffff:127.0.0.1) as the IPv4 address it carries.
  if (!REFUSED.check(bare, type)) return null;
  if (allowance === "all" || allowance.check(bare, type)) return null;
  return `${bare} is a private, loopback, link-local or metadata address (allow it with TALLY_ALLOW_PRIVATE_DESTINATIONS)`;
}

export type GuardContext = {
  allowance: Allowance;
  /** Tally's own origins (its public URL, and its port on this machine): never a destination. */
  selfOrigins: string[];
  /** Tally's listening port: any local address on it is Tally itself. */
  selfPort: number;
  /** How names are resolved (default: the system's resolver, dns.lookup); tests stand in a changing DNS. */
  resolve?: Resolve;
};

export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );

let cached: { spec: string | undefined; allowance: Allowance } | undefined;

/** The guard for what operators configure at run time, from the configuration. */
export function guardFor(config: {
  TALLY_ALLOW_PRIVATE_DESTINATIONS?: string;
  PORT: number;
  publicUrl: string;
}): GuardContext {
  const spec = config.TALLY_ALLOW_PRIVATE_DESTINATIONS;
  if (!cached || cached.spec !== spec) cached = { spec, allowance: parseAllowance(spec) };
  const port = config.PORT;
  return {
    allowance: cached.allowance,
    selfOrigins: [
      new URL(config.publicUrl).origin,
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
    ],
    selfPort: port,
  };
}

const LOCAL_NAME = /(^|\.)localhost\.?$/i;
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet("127.0.0.0", 8, "ipv4");
THIS_MACHINE.addAddress("0.0.0.0", "ipv4");
THIS_MACHINE.addAddress("::1", "ipv6");
THIS_MACHINE.addAddress("::", "ipv6");

/** What is wrong with a destination URL before any connection: scheme, Tally itself, the simulator's controls. */
function urlRefusal(u: URL, ctx: GuardContext): string | null {
  if (u.protocol !== "http:" && u.protocol !== "https:") return "only http and https URLs are allowed";
  if (u.pathname.startsWith("/_sim/")) return "the simulator's control routes are not a destination";
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (ctx.selfOrigins.includes(u.origin)) return "Tally itself is not a destination";
  const local =
    LOCAL_NAME.test(host) || (isIP(host) !== 0 && THIS_MACHINE.check(host, isIP(host) === 4 ? "ipv4" : "ipv6"));
  if (local && port === ctx.selfPort) return "Tally itself is not a destination";
  if (LOCAL_NAME.test(host) && ctx.allowance !== "all") {
    const lo = addressRefusal("127.0.0.1", ctx.allowance);
    if (lo) return `${host} is the local machine (allow it with TALLY_ALLOW_PRIVATE_DESTINATIONS)`;
  }
  if (isIP(host)) return addressRefusal(host, ctx.allowance);
  return null;
}

/**
 * Checks a destination URL when it is saved: refused (400, with the reason) when it names Tally itself,
 * the simulator's controls, or an address, literal or resolved, that the guard refuses. A name that does
 * not resolve now is accepted: the connect-time check still applies when it does.
 */
export async function checkDestinationUrl(url: string, ctx: GuardContext): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BadRequest("Invalid body: url: must be an http(s) URL");
  }
  const reason = urlRefusal(u, ctx);
  if (reason) throw new BadRequest(`Refused destination URL: ${reason}`);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return;
  const addresses = await (ctx.resolve ?? systemResolve)(host).catch(() => []);
  for (const a of addresses) {
    const why = addressRefusal(a.address, ctx.allowance);
    if (why) throw new BadRequest(`Refused destination URL: ${host} resolves to ${why}`);
  }
}

/** The error a refused connection fails with; its message is what the attempt records. */
export class RefusedAddress extends Error {
  readonly code = "EADDRREFUSED_BY_TALLY";
}

/**
 * A `lookup` for net/http/https connections that refuses the whole name when any address it resolves to
 * is refused (a rebinding name cannot slip one private answer among public ones).
 */
export function guardedLookup(allowance: Allowance, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addrs) => answer(null, addrs),
      (err: NodeJS.ErrnoException) => answer(err, []),
    );
    function answer(err: NodeJS.ErrnoException | null, all: LookupAddress[]) {
      if (err) return callback(err, "", 0);
      const addrs = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
      for (const a of all) {
        const why = addressRefusal(a.address, allowance);
        if (why) return callback(new RefusedAddress(`${hostname} resolves to ${why}`), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addrs);
      const first = addrs[0];
      if (!first) return callback(new RefusedAddress(`${hostname} resolves to no address`), "", 0);
      callback(null, first.address, first.family);
    }
  };
}

export type PostAnswer = { status: number; body: AsyncIterable<Buffer> & { destroy(): void } };

/**
 * One POST over node:http(s), with the guard on the connected address when `guard` is given (a literal
 * address in the URL is checked before connecting; a name through the lookup hook). Redirects are not
 * followed. The caller reads (and then destroys) the body.
 */
export function guardedPost(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal; guard: GuardContext | null },
): Promise<PostAnswer> {
  const u = new URL(url);
  if (init.guard) {
    const reason = urlRefusal(u, init.guard);
    if (reason) return Promise.reject(new RefusedAddress(reason));
  }
  const transport = u.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      u,
      {
        method: "POST",
        headers: { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) },
        signal: init.signal,
        agent: false,
        ...(init.guard ? { lookup: guardedLookup(init.guard.allowance, init.guard.resolve) } : {}),
      },
      (res) => resolve({ status: res.statusCode ?? 0, body: res }),
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
