import { Cron } from "croner";

// A collection's schedule: a cron expression in an IANA time zone, evaluated by croner (DST-aware: a
// 02:30 that does not exist on the spring-forward day runs at 03:00, and a 01:30 that happens twice in
// autumn runs once). Pure: used by the domain, the pages and the tests.

/** Why a time zone is unusable, or null. */
export function timezoneProblem(tz: string): string | null {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return null;
  } catch {
    return `timezone ${JSON.stringify(tz)} is not an IANA time zone (for example "UTC" or "Asia/Jakarta")`;
  }
}

function cronOf(expr: string, tz: string): Cron {
  const parts = expr.trim().split(/\s+/).length;
  return new Cron(expr, { timezone: tz, paused: true, mode: parts === 6 ? "6-part" : "5-part" });
}

/** Why a cron expression is unusable, or null. Five fields (minute hour day month weekday), or six with seconds first. */
export function scheduleProblem(expr: string, tz: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6)
    return `schedule must have five fields (minute hour day-of-month month day-of-week), like "0 2 * * *", or six with seconds first; got ${fields.length}`;
  try {
    const next = cronOf(expr, tz).nextRun(new Date());
    if (!next) return "schedule never fires";
  } catch (err) {
    return `schedule ${JSON.stringify(expr)} is not a valid cron expression: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

/** The first tick strictly after `after`, or null when there is none. */
export function nextTick(expr: string, tz: string, after: Date): Date | null {
  return cronOf(expr, tz).nextRun(after);
}

const pad = (n: number) => String(n).padStart(2, "0");
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A schedule in words for the pages: the common shapes spelled out, anything else as its expression. */
export function describeSchedule(expr: string, tz: string): string {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return `Cron "${expr}" (${tz})`;
  const [min, hour, dom, mon, dow] = fields;
  const isNum = (s: string | undefined) => s !== undefined && /^\d+$/.test(s);
  const at = isNum(min) && isNum(hour) ? `${pad(Number(hour))}:${pad(Number(min))}` : null;
  const zone = `(${tz})`;
  if (at && dom === "*" && mon === "*" && dow === "*") return `Every day at ${at} ${zone}`;
  if (at && dom === "*" && mon === "*" && isNum(dow)) return `Every ${DAYS[Number(dow) % 7]} at ${at} ${zone}`;
  if (at && dom === "*" && mon === "*" && dow === "1-5") return `Weekdays at ${at} ${zone}`;
  if (at && isNum(dom) && mon === "*" && dow === "*") return `Monthly on day ${dom} at ${at} ${zone}`;
  if (isNum(min) && hour === "*" && dom === "*" && mon === "*" && dow === "*")
    return `Every hour at minute ${min} ${zone}`;
  const every = /^\*\/(\d+)$/.exec(min ?? "");
  if (every && hour === "*" && dom === "*" && mon === "*" && dow === "*") return `Every ${every[1]} minutes ${zone}`;
  if (min === "*" && hour === "*" && dom === "*" && mon === "*" && dow === "*") return `Every minute ${zone}`;
  return `Cron "${expr}" ${zone}`;
}
