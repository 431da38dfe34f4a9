import "server-only";
import type { Role } from "../auth";
import type { DeliveryListQuery } from "./contracts";
import { listDestinations } from "./destinations";
import { destinationHealth } from "./health";
import { listDeliveries } from "./list";

/** Everything the Outbound page shows first, read in one go for the server render. */
export async function outboundPage(q: DeliveryListQuery, role: Role) {
  const [destinations, health, deliveries] = await Promise.all([
    listDestinations(),
    destinationHealth(new Date(), role),
    listDeliveries(q, role),
  ]);
  return { destinations, health, deliveries };
}
