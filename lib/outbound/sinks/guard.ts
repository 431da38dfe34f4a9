import "server-only";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { AbstractConnector, type RedisOptions } from "ioredis";
import { addressRefusal, type GuardContext, guardedLookup, RefusedAddress } from "../../net";
import type { SinkConfig, SinkType } from "../sink-config";

// The private-address rule for sinks (TALLY_ALLOW_PRIVATE_DESTINATIONS): the host a sink connects to must
// not be, or resolve to, a private, loopback, link-local or metadata address unless allowed. Checked on
// save and when a sink is opened (sinkHostRefusal: a clear reason early), and again on every connection
// a client makes (the helpers below, one per client library): a literal address or a Unix socket before
// connecting, a name through the connection's `lookup`, so what is checked is the address connected to,
// whatever the name answers by then (DNS rebinding) and wherever the URL's options point the client
// (`?host=` for PostgreSQL, `?socketPath=` for MySQL, `?path=` for Redis). The NATS client resolves
// names itself with no hook: it is given the addresses guardedAddresses checked, never the name, and
// ignores the servers a NATS server announces (docs/operations/security.md).

export function sinkHost(type: SinkType, config: SinkConfig): string {
  const c = config as Record<string, unknown>;
  const raw = type === "s3" ? c.endpoint : c.url;
  if (typeof raw !== "string") return `s3.${String(c.region)}.amazonaws.com`;
  return new URL(raw).hostname.replace(/^\[|\]$/g, "");
}

const systemResolve = (host: string): Promise<LookupAddress[]> => dnsLookup(host, { all: true });

/** Why Tally must not connect to this sink's host, or null when it may. */
export async function sinkHostRefusal(type: SinkType, config: SinkConfig, guard: GuardContext): Promise<string | null> {
  const host = sinkHost(type, config);
  const addresses = net.isIP(host)
    ? [host]
    : /(^|\.)localhost\.?$/i.test(host)
      ? ["127.0.0.1"]
      : (await (guard.resolve ?? systemResolve)(host).catch(() => [])).map((a) => a.address);
  for (const a of addresses) {
    const why = addressRefusal(a, guard.allowance);
    if (why) return net.isIP(host) ? why : `${host} resolves to ${why}`;
  }
  return null;
}

/**
 * The addresses `host` stands for, every one allowed by the guard (RefusedAddress otherwise): for a client
 * that resolves names itself with no hook (NATS), which is then given these addresses, not the name.
 */
export async function guardedAddresses(host: string, guard: GuardContext): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = net.isIP(bare)
    ? [bare]
    : /(^|\.)localhost\.?$/i.test(bare)
      ? ["127.0.0.1"]
      : (await (guard.resolve ?? systemResolve)(bare)).map((a) => a.address);
  if (addresses.length === 0) throw new RefusedAddress(`${bare} resolves to no address`);
  for (const a of addresses) {
    const why = addressRefusal(a, guard.allowance);
    if (why) throw new RefusedAddress(net.isIP(bare) ? why : `${bare} resolves to ${why}`);
  }
  return addresses;
}

/** Where a client asks to connect: a host and port, or a Unix socket. */
type Target = { host: string; port: number } | { path: string };

/** Why the guard refuses a target before any lookup (a Unix socket, a literal address), or null. */
function targetRefusal(t: Target, guard: GuardContext): string | null {
  if ("path" in t)
    return addressRefusal("127.0.0.1", guard.allowance)
      ? `a Unix socket (${t.path}) is the local machine (allow 127.0.0.1 with TALLY_ALLOW_PRIVATE_DESTINATIONS)`
      : null;
  const host = t.host.replace(/^\[|\]$/g, "");
  return net.isIP(host) ? addressRefusal(host, guard.allowance) : null;
}

/** A refused connection: the socket fails with the reason, as one the network refused would. */
function refusedSocket(socket: net.Socket, why: string): net.Socket {
  process.nextTick(() => socket.destroy(new RefusedAddress(why)));
  return socket;
}

/** Connects `socket` (new, or a TLS socket's options) to `t` through the guard. */
function guardedConnect(t: Target, guard: GuardContext, tlsOptions?: tls.ConnectionOptions): net.Socket {
  const why = targetRefusal(t, guard);
  if (why) return refusedSocket(new net.Socket(), why);
  if ("path" in t) return tlsOptions ? tls.connect({ ...tlsOptions, path: t.path }) : net.connect(t.path);
  const options = { host: t.host, port: t.port, lookup: guardedLookup(guard.allowance, guard.resolve) };
  return tlsOptions ? tls.connect({ ...tlsOptions, ...options }) : net.connect(options);
}

/** pg's `stream`: a socket whose connect(port, host) or connect(path) goes through the guard. */
export function pgGuardedStream(guard: GuardContext | undefined): { stream?: () => net.Socket } {
  if (!guard) return {};
  return {
    stream: () => {
      const socket = new net.Socket();
      const connect = socket.connect.bind(socket);
      const guarded = (portOrPath: number | string, host?: string): net.Socket => {
        const t: Target =
          typeof portOrPath === "string" ? { path: portOrPath } : { host: host ?? "localhost", port: portOrPath };
        const why = targetRefusal(t, guard);
        if (why) return refusedSocket(socket, why);
        return "path" in t
          ? connect(t.path)
          : connect({ host: t.host, port: t.port, lookup: guardedLookup(guard.allowance, guard.resolve) });
      };
      return Object.assign(socket, { connect: guarded });
    },
  };
}

/** mysql2's `stream`: the connection's socket, made through the guard (keep-alive as mysql2 sets it). */
export function mysqlGuardedStream(guard: GuardContext | undefined) {
  if (!guard) return {};
  return {
    stream: (opts: {
      config: { host?: string; port?: number; socketPath?: string; keepAliveInitialDelay?: number };
    }): net.Socket => {
      const c = opts.config;
      const socket = guardedConnect(
        c.socketPath ? { path: c.socketPath } : { host: c.host ?? "localhost", port: c.port ?? 3306 },
        guard,
      );
      socket.setNoDelay(true);
      socket.once("connect", () => socket.setKeepAlive(true, c.keepAliveInitialDelay ?? 0));
      return socket;
    },
  };
}

/** amqplib's socket options: its net/tls.connect takes `lookup` (the URL's host is the only host it uses). */
export function amqpGuardedLookup(guard: GuardContext | undefined): { lookup?: net.LookupFunction } {
  return guard ? { lookup: guardedLookup(guard.allowance, guard.resolve) } : {};
}

/**
 * ioredis's `Connector`: its own passes only host, port and family to net.connect, so this one does what it
 * does (a stream per connect, TLS when asked) through the guard, a `path` (Unix socket) included.
 */
export function redisGuardedConnector(guard: GuardContext | undefined): Pick<RedisOptions, "Connector"> {
  if (!guard) return {};
  const g = guard;
  class GuardedConnector extends AbstractConnector {
    private readonly options: RedisOptions & { path?: string };
    constructor(options: unknown) {
      const o = options as RedisOptions & { path?: string };
      super(o.disconnectTimeout ?? 2000);
      this.options = o;
    }
    connect() {
      this.connecting = true;
      const o = this.options;
      return new Promise<net.Socket>((resolve, reject) => {
        process.nextTick(() => {
          if (!this.connecting) return reject(new Error("Connection is closed."));
          const t: Target = o.path ? { path: o.path } : { host: o.host ?? "localhost", port: o.port ?? 6379 };
          const stream = guardedConnect(t, g, o.tls ? o.tls : undefined);
          this.stream = stream;
          stream.once("error", (err) => (this.firstError = err));
          resolve(stream);
        });
      });
    }
  }
  return { Connector: GuardedConnector };
}

/** The S3 client's agents: node's Agent passes `lookup` to every connection it opens. */
export function s3GuardedAgents(guard: GuardContext | undefined) {
  if (!guard) return {};
  const lookup = guardedLookup(guard.allowance, guard.resolve);
  return {
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 50, lookup }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 50, lookup }),
  };
}
