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
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

module.exports = nextConfig;
