import "server-only";
import { collect, paginate, type Page } from "./paginate";
import type { CallOptions, Transport } from "./request";
import {
  createdWebhookSchema,
  deliveryListSchema,
  rotatedSecretSchema,
  webhookListSchema,
  webhookSchema,
  type CreateWebhookRequest,
  type Delivery,
  type DeliveryStatus,
  type UpdateWebhookRequest,
} from "./webhook-schemas";

export type DeliveryFilters = {
  status?: DeliveryStatus;
  /** Applied client-side on `created_at` (the platform has no such filter); paging stops once past it
   * when the log is seen to be newest first (the contract does not promise an order, so it is checked). */
  since?: Date;
  pageSize?: number;
};

const id = (value: string) => encodeURIComponent(value);

/** Webhook subscription endpoints; the whole family may be missing in production (404 → PlatformNotFound). */
export function createWebhookApi(request: Transport["request"]) {
  const api = {
    /** 201; the only response that carries the secret. */
    createWebhook: (req: CreateWebhookRequest, call?: CallOptions) =>
      request(
        {
          method: "POST",
          path: "/v1/webhooks",
          endpoint: "POST /v1/webhooks",
          body: req,
          schema: createdWebhookSchema,
        },
        call,
      ),

    /** Every subscription, all pages. */
    listWebhooks: (call?: CallOptions) =>
      collect(
        paginate(async (page) => {
          const doc = await request(
            {
              method: "GET",
              path: "/v1/webhooks",
              endpoint: "GET /v1/webhooks",
              query: { page, page_size: 100 },
              schema: webhookListSchema,
            },
            call,
          );
          return { items: doc.items, pageCount: doc.page_count };
        }),
      ),

    getWebhook: (webhookId: string, call?: CallOptions) =>
      request(
        {
          method: "GET",
          path: `/v1/webhooks/${id(webhookId)}`,
          endpoint: "GET /v1/webhooks/{webhook_id}",
          schema: webhookSchema,
        },
        call,
      ),

    updateWebhook: (webhookId: string, patch: UpdateWebhookRequest, call?: CallOptions) =>
      request(
        {
          method: "PATCH",
          path: `/v1/webhooks/${id(webhookId)}`,
          endpoint: "PATCH /v1/webhooks/{webhook_id}",
          body: patch,
          schema: webhookSchema,
        },
        call,
      ),

    /** 204, no body. */
    deleteWebhook: (webhookId: string, call?: CallOptions) =>
      request(
        {
          method: "DELETE",
          path: `/v1/webhooks/${id(webhookId)}`,
          endpoint: "DELETE /v1/webhooks/{webhook_id}",
          schema: null,
        },
        call,
      ),

    /** The old secret stops working at once on the platform's side. */
    rotateWebhookSecret: (webhookId: string, call?: CallOptions) =>
      request(
        {
          method: "POST",
          path: `/v1/webhooks/${id(webhookId)}/rotate-secret`,
          endpoint: "POST /v1/webhooks/{webhook_id}/rotate-secret",
          schema: rotatedSecretSchema,
        },
        call,
      ),

    /** The delivery log page by page, only records at or after `since`. While every record read so far
     * came newest first, a page that reaches back past `since` is the last one read; out of order, every
     * page is read. */
    async *listDeliveries(
      webhookId: string,
      filters: DeliveryFilters = {},
      call?: CallOptions,
    ): AsyncGenerator<Page<Delivery>, void, undefined> {
      const since = filters.since?.getTime();
      const pages = paginate(async (page) => {
        const doc = await request(
          {
            method: "GET",
            path: `/v1/webhooks/${id(webhookId)}/deliveries`,
            endpoint: "GET /v1/webhooks/{webhook_id}/deliveries",
            query: { page, page_size: filters.pageSize ?? 100, status: filters.status },
            schema: deliveryListSchema,
          },
          call,
        );
        return { items: doc.items, pageCount: doc.page_count };
      });
      let ordered = true;
      let previous = Infinity;
      for await (const page of pages) {
        for (const d of page.items) {
          const t = Date.parse(d.created_at);
          if (t > previous) ordered = false;
          previous = t;
        }
        const items = since === undefined ? page.items : page.items.filter((d) => Date.parse(d.created_at) >= since);
        if (items.length > 0) yield { ...page, items };
        if (since !== undefined && ordered && previous < since) return;
      }
    },
  };
  return api;
}
