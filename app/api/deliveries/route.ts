// GET /api/deliveries — one page of the inbound log or the mirrored platform log, filtered, keyset-paged
import { z } from "zod";
import { deliveryQuerySchema, inboundPageSchema, listInbound, listPlatform, platformPageSchema } from "@/lib/webhooks";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One page of the inbound delivery log or the mirrored platform log, filtered, keyset-paged",
    answer: z.union([inboundPageSchema, platformPageSchema]),
    query: deliveryQuerySchema,
  },
  ({ query }) => (query.log === "platform" ? listPlatform(query) : listInbound(query)),
);
