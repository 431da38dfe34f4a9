import "server-only";
import type { DeliveryListQuery } from "./contracts";
import { listDestinations } from "./destinations";
import { destinationHealth } from "./health";
import { listDeliveries } from "./list";

/** Everything the Outbound page shows first, read in one go for the server render. */
export async function outboundPage(q: DeliveryListQuery) {
  const [destinations, health, deliveries] = await Promise.all([
    listDestinations(),
    destinationHealth(),
    listDeliveries(q),
  ]);
  return { destinations, health, deliveries };
}
