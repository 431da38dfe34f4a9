import "server-only";

export type BodyRead = { ok: true; body: Uint8Array } | { ok: false; size: number };

/**
 * Reads a request body up to `limit` bytes. A Content-Length above the limit is refused before
 * reading; without one, reading stops as soon as the limit is passed.
 */
export async function readBodyLimited(req: Request, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, size: declared };
  if (!req.body) return { ok: true, body: new Uint8Array(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, size: total };
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return { ok: true, body: chunks[0] };
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, body };
}
