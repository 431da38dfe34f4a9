import "server-only";
// lib/http's surface: what other folders import from it (its files import each other directly).
export { gateRequest, LOGIN_MAX_BODY_BYTES } from "./body-gate";
export { CLIENT_ADDRESS_HEADER, clientAddress, clientAddressSetByServer, resolveClientAddress } from "./client-address";
export { cronRoute } from "./cron-route";
export { deadline } from "./deadline";
export { errorBodySchema, errorResponse, STATUS } from "./errors";
export { parseJsonBody, refuseBadText } from "./json-body";
export { isMetricsPath, sendJson, serveMetrics } from "./node-answer";
export { operatorRoute, sameOrigin } from "./operator-route";
export { documented, PLATFORM_ERRORS, routeDocOf, type RouteDoc } from "./route-doc";
