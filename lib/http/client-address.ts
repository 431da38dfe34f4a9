import "server-only";

/** The client's address for throttling: the first X-Forwarded-For hop, else "local". */
export function clientAddress(headers: Headers): string {
  const fwd = headers.get("x-forwarded-for");
  const first = fwd?.split(",")[0]?.trim();
  return first || headers.get("x-real-ip") || "local";
}
