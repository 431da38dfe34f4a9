import "server-only";
// lib/alerts's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { runAlertPass, startAlerts } from "./schedule";
export { sendTestAlert } from "./test-alert";
export { alertsView, channelsView } from "./view";
export { acknowledgeAlert, silenceAlert, unsilenceAlert } from "./silence";
