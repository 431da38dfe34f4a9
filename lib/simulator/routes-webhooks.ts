import "server-only";
import { z } from "zod";
import { createWebhookRequestSchema, deliveryStatusSchema, updateWebhookRequestSchema } from "@/lib/platform/contract";
import type { SimCore } from "./core";
import { deliveryDoc } from "./deliveries";
import { flatError, pageOf, type Reply } from "./http";
import { checkUuid, notFound, pageParam, pageSizeParam, parseOr422, route, type Ctx, type Route } from "./router";
import { webhookDoc, type Subscription } from "./webhooks";

const listQuery = z.object({ page: pageParam, page_size: pageSizeParam(100, 100) });
const deliveriesQuery = listQuery.extend({ status: deliveryStatusSchema.nullish() });

/** Validates the `{webhook_id}` param and finds the subscription, or answers 422/404. */
function withWebhook(core: SimCore, ctx: Ctx, fn: (sub: Subscription) => Reply): Reply {
  const bad = checkUuid(ctx, "webhook_id");
  if (bad) return bad;
  const sub = core.webhooks.get(ctx.params.webhook_id);
  return sub ? fn(sub) : notFound(ctx, "Webhook");
}

export function webhookRoutes(core: SimCore): Route[] {
  return [
    route("POST", "/v1/webhooks", (ctx) => {
      const parsed = parseOr422(createWebhookRequestSchema, ctx.body, "body");
      if (!parsed.ok) return parsed.reply;
      const max = core.config().maxWebhooks;
      if (core.webhooks.size() >= max) {
        return flatError(409, "WEBHOOK_LIMIT_REACHED", `At most ${max} webhooks per account`, ctx.correlationId);
      }
      const sub = core.webhooks.create(core.streams().ids.uuid(), parsed.data);
      return { status: 201, body: { ...webhookDoc(sub), secret: sub.secret } };
    }),
    route("GET", "/v1/webhooks", (ctx) => {
      const q = parseOr422(listQuery, ctx.query, "query");
      if (!q.ok) return q.reply;
      const { slice, ...paging } = pageOf(core.webhooks.list(), q.data.page, q.data.page_size);
      return { status: 200, body: { items: slice.map(webhookDoc), ...paging } };
    }),
    route("GET", "/v1/webhooks/{webhook_id}", (ctx) =>
      withWebhook(core, ctx, (sub) => ({ status: 200, body: webhookDoc(sub) })),
    ),
    route("PATCH", "/v1/webhooks/{webhook_id}", (ctx) =>
      withWebhook(core, ctx, (sub) => {
        const parsed = parseOr422(updateWebhookRequestSchema, ctx.body, "body");
        if (!parsed.ok) return parsed.reply;
        const updated = core.webhooks.update(sub.id, parsed.data);
        return updated ? { status: 200, body: webhookDoc(updated) } : notFound(ctx, "Webhook");
      }),
    ),
    route("DELETE", "/v1/webhooks/{webhook_id}", (ctx) =>
      withWebhook(core, ctx, (sub) => {
        core.webhooks.delete(sub.id);
        core.deliveries.forget(sub.id);
        return { status: 204 };
      }),
    ),
    route("POST", "/v1/webhooks/{webhook_id}/rotate-secret", (ctx) =>
      withWebhook(core, ctx, (sub) => ({ status: 200, body: { secret: core.webhooks.rotate(sub.id) } })),
    ),
    route("GET", "/v1/webhooks/{webhook_id}/deliveries", (ctx) =>
      withWebhook(core, ctx, (sub) => {
        const q = parseOr422(deliveriesQuery, ctx.query, "query");
        if (!q.ok) return q.reply;
        const status = q.data.status;
        const records = core.deliveries.log(sub.id).filter((r) => !status || r.status === status);
        const { slice, ...paging } = pageOf(records, q.data.page, q.data.page_size);
        return { status: 200, body: { items: slice.map(deliveryDoc), ...paging } };
      }),
    ),
  ];
}
