// GET /api/deliveries — one page of the inbound log or the mirrored platform log, filtered, keyset-paged
import { deliveryQuerySchema } from "@/lib/deliveries/contracts";
import { listInbound, listPlatform } from "@/lib/deliveries/list";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer", query: deliveryQuerySchema }, ({ query }) =>
  query.log === "platform" ? listPlatform(query) : listInbound(query),
);
