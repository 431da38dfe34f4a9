import headerList from "./security-headers.json";

// The one list of security headers: every page and API answer gets them through next.config.js
// (which reads the same JSON), the receiver through lib/webhooks/node-server.ts. The
// Content-Security-Policy, with its per-request nonce, is set for pages only, in proxy.ts.

export const securityHeaders: readonly { key: string; value: string }[] = headerList;

// Scraped HTML is shown only in sandboxed frames without scripts, and this policy stops anything that
// slips through from running or phoning home.
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' about: data:",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}
