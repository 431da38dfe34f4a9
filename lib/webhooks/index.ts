import "server-only";
// lib/webhooks's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { deliveriesPage, listInbound, listPlatform } from "./deliveries-list";
export { createReceiverHandler, createReceiverServer, isReceiverPath, publicServerOptions } from "./node-server";
export { handleDelivery, methodNotAllowed } from "./route-handlers";
export { invalidateSecretCache } from "./secrets";
export { closeReceiverStore, sqliteDate } from "./store";
export { receiverUrl } from "./urls";
