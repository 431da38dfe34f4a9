// lib/webhooks's surface for client components (no server code): what other folders and the browser may import.
export {
  type DeliveryFilter,
  deliveryQuerySchema,
  filterToParams,
  type InboundPage,
  inboundPageSchema,
  type InboundRow,
  normalize,
  parseDeliveryFilter,
  type PlatformPage,
  platformPageSchema,
  type PlatformRow,
  windowSchema,
} from "./deliveries-contracts";
