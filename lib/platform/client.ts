// lib/platform's surface for client components (no server code): what other folders and the browser may import.
export { type BudgetView, budgetViewSchema } from "./budget-contracts";
export {
  EVENT_FOR_KIND,
  EVENT_TYPES,
  type EventType,
  isJobKind,
  JOB_KINDS,
  JOB_OUTCOMES,
  JOB_STATUSES,
  KIND_FOR_EVENT,
  kindForEvent,
} from "./events";
