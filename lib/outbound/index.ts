import "server-only";
// lib/outbound's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { createDestinationAction, replayAction, setDestinationEnabledAction } from "./actions";
export { ensureDefaultDestination, listDestinations, parseEvents } from "./destinations";
export { forwardEventKind } from "./handler";
export { destinationHealth } from "./health";
export { deliveryAttempts, listDeliveries } from "./list";
export { enqueueEvent, enqueueEvents, enqueueOutcomeEvents, eventTypeOf, hasSubscribers } from "./outbox";
export { type Sink, type SinkRequest, startSink } from "./test-sink";
export { outboundPage } from "./view";
export { webhookId } from "./webhook-id";
