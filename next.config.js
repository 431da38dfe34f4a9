// Next.js configuration. Plain JavaScript with a JSDoc type, so Node loads it without a TypeScript step.
const securityHeaders = require("./lib/http/security-headers.json");

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Lets parallel builds (several engineers, one checkout) keep separate outputs; build and start
  // must see the same value.
  // eslint-disable-next-line no-restricted-properties -- read before lib/config.ts can load
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` type-checks the whole project (tsc --noEmit) before it builds; not twice.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // The proxy buffers a request's body before it runs (to answer 401 to a bad credential), and hands the
  // route a body CUT at this size, silently. The largest body Tally reads is a run's URL list (32 MB,
  // lib/runs/request.ts, which also refuses a body shorter than its Content-Length); JSON bodies are
  // capped at 256 KB by the route wrapper, and server.ts answers anonymous bodies before they are read.
  // preloadEntriesOnStart: every page and route is loaded at start-up (Next's default) unless
  // TALLY_PRELOAD_ROUTES=off (lib/config.ts validates the value; read here, at build and at start, before
  // lib/config loads).
  experimental: {
    proxyClientMaxBodySize: "33mb",
    // eslint-disable-next-line no-restricted-properties -- read before lib/config.ts can load
    preloadEntriesOnStart: process.env.TALLY_PRELOAD_ROUTES !== "off",
  },
  // The OpenTelemetry SDK (lib/tracing) is loaded from node_modules as is, never bundled: one copy per
  // process, shared with server.ts's bundle.
  serverExternalPackages: [
    "@opentelemetry/api",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/core",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace",
    // The judging pool (lib/judging) starts its threads from piscina's own files.
    "piscina",
  ],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

module.exports = nextConfig;
