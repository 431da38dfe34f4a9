import "server-only";
// lib/subscriptions's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { registerAction, replay401sAction, rotateAction, setSecretAction } from "./actions";
export { subscriptionAlerts } from "./alerts";
export { listSubscriptions, resolveSubscriptionId } from "./list";
export { recoverRotations, type Recovery } from "./recover";
export { registerSubscriptions } from "./register";
export { clearExpiredPreviousSecrets } from "./secrets";
export { unauthorizedChart } from "./unauthorized-chart";
export { subscriptionsPage } from "./view";
