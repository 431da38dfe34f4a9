import "server-only";
import { getConfig } from "../config";

/** Where the platform must deliver a subscription's events: Tally's receiver path for its own key. */
export function receiverUrl(subscriptionId: string, publicUrl = getConfig().publicUrl): string {
  return `${publicUrl}/webhooks/geonode/${encodeURIComponent(subscriptionId)}`;
}
