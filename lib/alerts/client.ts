// lib/alerts's surface for client components (no server code): what other folders and the browser may import.
export {
  type AlertEventView,
  type AlertsView,
  alertsViewSchema,
  type Channel,
  channelSchema,
  type ChannelView,
  type NotificationView,
  type RuleView,
  testResultSchema,
  ackResultSchema,
  silenceBodySchema,
  silenceResultSchema,
} from "./contracts";
