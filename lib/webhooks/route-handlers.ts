import "server-only";
import { getConfig } from "../config";
import { log, requestIdFrom, withRequestId } from "../log";
import { readBodyLimited } from "./read-body";
import { countUnrecorded, receive, recordRejected } from "./receive";

// The two receiver routes share these handlers; app/webhooks/… only wires them to paths.

// Next passes no params object to a route without dynamic segments.
type Ctx = { params?: Promise<{ subscriptionKey?: string }> };

export async function handleDelivery(req: Request, ctx: Ctx): Promise<Response> {
  // The proxy does not see /webhooks/ (it must cost the receiver nothing): the request id is set here.
  const id = requestIdFrom(req.headers.get("x-request-id"));
  const res = await withRequestId(id, () => decideDelivery(req, ctx));
  res.headers.set("x-request-id", id);
  return res;
}

async function decideDelivery(req: Request, ctx: Ctx): Promise<Response> {
  const startedAt = Date.now();
  const key = (await ctx.params)?.subscriptionKey ?? null;
  try {
    const read = await readBodyLimited(req, getConfig().TALLY_WEBHOOK_MAX_BODY_BYTES);
    const answer = await receive({ subscriptionKey: key, headers: req.headers, read, startedAt });
    return Response.json(answer.body, { status: answer.status });
  } catch (err) {
    countUnrecorded(startedAt);
    log.error("webhook delivery not recorded", { error: String(err) });
    return Response.json({ error: "not_recorded", reason: "storage unavailable; retry" }, { status: 503 });
  }
}

export async function methodNotAllowed(req: Request, ctx: Ctx): Promise<Response> {
  const key = (await ctx.params)?.subscriptionKey ?? null;
  await recordRejected(key, 405, `method ${req.method} not allowed`, Date.now());
  return Response.json({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
}
