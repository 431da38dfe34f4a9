// lib/subscriptions's surface for client components (no server code): what other folders and the browser may import.
export {
  missingEventTypes,
  rotatedSchema,
  rotateFailureSchema,
  secretBodySchema,
  subscriptionAlertSchema,
  type SubscriptionItem,
  subscriptionItemSchema,
  type SubscriptionList,
  subscriptionListSchema,
  subscriptionParamsSchema,
} from "./contracts";
export {
  type Spike,
  SPIKE_WINDOW_MINUTES,
  type UnauthorizedChart,
  unauthorizedChartSchema,
  unauthorizedQuerySchema,
} from "./unauthorized-contracts";
