// The private-address rule on the address a sink's client actually connects to. A name that answers a
// public address when the sink is checked and loopback when the client connects (DNS rebinding) is
// refused by the connection's own lookup, or for NATS (whose client resolves names itself) by the check
// of the addresses it is given instead of the name. With loopback allowed, the same name connects through
// the same path to the real service: the hook is what the client uses. Options in a URL that point a
// client elsewhere (PostgreSQL's ?host=, MySQL's ?socketPath=, Redis's ?path= and ?Connector=) are
// refused by the schema and, past it, by the connection; NATS ignores the servers a server announces.
import type { LookupAddress } from "node:dns";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowance, type GuardContext } from "@/lib/net/address-guard";
import { checkSink } from "@/lib/outbound/sink-send";
import { mysqlSink } from "@/lib/outbound/sinks/mysql";
import { natsSink } from "@/lib/outbound/sinks/nats";
import { postgresConnection, postgresSink } from "@/lib/outbound/sinks/postgres";
import { redisSink } from "@/lib/outbound/sinks/redis";
import type { SinkType } from "@/lib/outbound/sink-config";
import { SERVICES, serviceAnswers, type SinkService } from "@/test/sink-services";

const NAME = "sink.rebind.test";
// s3rver takes a host name it does not know for a bucket's (virtual-host style): S3's own shape of name.
const S3_NAME = "s3.rebind.amazonaws.com";
const PUBLIC = "93.184.215.14";

/** A DNS whose first answer for each check is public and every later one loopback. */
function rebinding(allow?: string): GuardContext {
  let calls = 0;
  return {
    allowance: parseAllowance(allow),
    selfOrigins: [],
    selfPort: 0,
    resolve: async (): Promise<LookupAddress[]> => [{ address: calls++ === 0 ? PUBLIC : "127.0.0.1", family: 4 }],
  };
}

/** The service's config with its address replaced by the rebinding name. */
function renamed(svc: SinkService, extra = ""): Record<string, unknown> {
  const c = { ...svc.config };
  for (const k of ["url", "endpoint"] as const)
    if (typeof c[k] === "string") c[k] = (c[k] as string).replace("127.0.0.1", nameOf(svc.type)) + extra;
  return c;
}

const nameOf = (type: SinkType) => (type === "s3" ? S3_NAME : NAME);

const refusal = (type: SinkType, config: unknown, guard: GuardContext) =>
  checkSink(type, config, guard, 3000).then(
    () => "accepted",
    (e: unknown) => (e as Error).message,
  );

for (const type of ["postgres", "mysql", "rabbitmq", "redis", "s3", "nats"] as const) {
  const up = await serviceAnswers(type);
  describe.skipIf(!up)(`the ${type} sink's connections`, () => {
    let svc: SinkService;
    beforeAll(async () => {
      svc = await SERVICES[type]();
    });
    afterAll(() => svc?.close());

    it("refuse a name that turns to loopback after the check, and connect through the same lookup when allowed", async () => {
      expect(await refusal(type, renamed(svc), rebinding())).toMatch(
        new RegExp(
          `The ${type} sink refused its config: .*${nameOf(type).replaceAll(".", "\\.")} resolves to 127\\.0\\.0\\.1 is a private`,
        ),
      );
      expect(await refusal(type, renamed(svc), rebinding("127.0.0.1"))).toBe("accepted");
    });
  });
}

describe("options in a sink's URL that point its client elsewhere", async () => {
  // The schema refuses them on save and when a sink is opened (url-options.test.ts); past it (the
  // factories called directly, as for a config stored before that rule) the connection's guard still does.
  const cases: [SinkType, string, RegExp][] = [
    ["mysql", "?socketPath=/run/mysqld/mysqld.sock", /a Unix socket .* is the local machine/],
  ];
  for (const [type, query, expected] of cases) {
    const up = await serviceAnswers(type);
    it.skipIf(!up)(`${type} ${query} is refused on saving and on connecting`, async () => {
      const svc = await SERVICES[type]();
      try {
        // The name answers a public address every time: only the option leads to this machine.
        const guard: GuardContext = {
          allowance: parseAllowance(undefined),
          selfOrigins: [],
          selfPort: 0,
          resolve: async () => [{ address: PUBLIC, family: 4 }],
        };
        const config = renamed(svc, query);
        expect(await refusal(type, config, guard)).toMatch(
          /is not allowed: a \w+ sink's URL takes no query|not allowed \(allowed/,
        );
        const sink = mysqlSink(config as never, { timeoutMs: 3000, guard });
        try {
          await expect(sink.check()).rejects.toThrow(expected);
        } finally {
          await sink.close();
        }
      } finally {
        await svc.close();
      }
    });
  }
});

describe("the redis sink's client options", () => {
  it("are built from the URL's parts: a query naming another connector and a socket still meets the guard", async () => {
    // Past the schema (a config stored before it refused query options): ioredis read its options from the
    // query, and ?Connector= (empty) chose its own connector, which opened the socket with no guard.
    const guard: GuardContext = {
      allowance: parseAllowance(undefined),
      selfOrigins: [],
      selfPort: 0,
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    };
    const sink = redisSink(
      { url: `redis://${NAME}:6379?Connector=&path=/run/redis/redis.sock`, stream: "s" },
      {
        timeoutMs: 2000,
        guard,
      },
    );
    try {
      await expect(sink.check()).rejects.toThrow(/sink\.rebind\.test resolves to 127\.0\.0\.1 is a private/);
    } finally {
      await sink.close();
    }
  });
});

describe("the nats sink's client", () => {
  it("ignores the servers a NATS server announces: it connects only to the address it checked", async () => {
    // A NATS server of the test's own: it announces another (on this machine, as a cluster's private
    // address would be), answers the handshake, then drops the client and stops listening.
    let announcedConnections = 0;
    const announced = createServer((s) => {
      announcedConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => announced.listen(0, "127.0.0.2", r));
    const first = createServer((s) => {
      s.write(
        `INFO ${JSON.stringify({ server_id: "fake", version: "2.10.0", proto: 1, headers: true, max_payload: 1048576, connect_urls: [`127.0.0.2:${(announced.address() as AddressInfo).port}`] })}\r\n`,
      );
      s.on("data", (d: Buffer) => {
        if (String(d).includes("PING")) s.write("PONG\r\n");
      });
      setTimeout(() => {
        s.destroy();
        first.close();
      }, 200);
    });
    await new Promise<void>((r) => first.listen(0, "127.0.0.1", r));
    const guard: GuardContext = { allowance: parseAllowance("127.0.0.1"), selfOrigins: [], selfPort: 0 };
    const port = (first.address() as AddressInfo).port;
    const sink = natsSink({ url: `nats://127.0.0.1:${port}`, subject: "s" }, { timeoutMs: 1000, guard });
    try {
      await sink.check().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 2000));
      expect(announcedConnections).toBe(0);
    } finally {
      await sink.close();
      announced.close();
    }
  });
});

describe("the postgres sink's client options", () => {
  it("are built from the URL's parts: past the schema, ?host= and file options are not even read", () => {
    const built = postgresConnection(
      "postgresql://loader:p%40ss@db.example:6543/analytics?host=/run/postgresql&sslrootcert=/dev/zero&sslmode=require",
    );
    expect({ ...built, password: typeof built.password === "function" ? built.password() : built.password }).toEqual({
      host: "db.example",
      port: 6543,
      user: "loader",
      password: "p@ss",
      database: "analytics",
      ssl: {},
    });
  });

  it("never send a password the URL lacks: not PGPASSWORD, not ~/.pgpass", async () => {
    // A PostgreSQL server of the test's own that asks for the password in clear and keeps what it gets.
    const received: string[] = [];
    const server = createServer((s) => {
      s.once("data", () => s.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]))); // AuthenticationCleartextPassword
      s.on("data", (d: Buffer) => {
        if (d[0] === 0x70) {
          received.push(d.subarray(5, d.length - 1).toString());
          s.destroy();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const guard: GuardContext = { allowance: parseAllowance("127.0.0.1"), selfOrigins: [], selfPort: 0 };
    const before = process.env.PGPASSWORD;
    process.env.PGPASSWORD = "the-deployers-password";
    const port = (server.address() as AddressInfo).port;
    const sink = postgresSink(
      { url: `postgresql://loader@127.0.0.1:${port}/analytics`, table: "t" },
      {
        timeoutMs: 2000,
        guard,
      },
    );
    try {
      await sink.check().catch(() => undefined);
      expect(received).toEqual([""]);
    } finally {
      if (before === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = before;
      await sink.close();
      server.close();
    }
  });
});
