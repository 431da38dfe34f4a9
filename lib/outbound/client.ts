// lib/outbound's surface for client components (no server code): what other folders and the browser may import.
export {
  attemptListSchema,
  createdDestinationSchema,
  type CreateDestination,
  createDestinationSchema,
  DELIVERY_STATUSES,
  type DeliveryListQuery,
  deliveryListQuerySchema,
  deliveryPageSchema,
  type DeliveryRow,
  type DeliveryStatus,
  type DestinationHealth,
  destinationListSchema,
  destinationParamsSchema,
  destinationSchema,
  type DestinationView,
  FORWARD_EVENTS,
  type ForwardEvent,
  healthListSchema,
  REPLAYABLE,
  type ReplayBody,
  replayBodySchema,
  replayResultSchema,
} from "./contracts";
export { DESTINATION_TYPES, type DestinationType, isSinkType, type SinkType } from "./sink-config";
export {
  DESTINATION_TYPE_LABELS,
  SINK_TYPE_HINTS,
  sinkConfigFromForm,
  sinkFormFields,
  type SinkFormValues,
} from "./sink-form";
