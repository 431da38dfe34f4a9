import "server-only";
import { randomBytes } from "node:crypto";
import type { Destination } from "@/generated/prisma/client";
import { getConfig, type TallyConfig } from "../config";
import { checkDestinationUrl, guardFor } from "../net";
import { db } from "../db";
import { BadRequest, Conflict, NotFound } from "../errors";
import { log } from "../log";
import {
  FORWARD_EVENTS,
  JOB_EVENTS,
  type CreateDestination,
  type DestinationView,
  type ForwardEvent,
} from "./contracts";
import {
  isSinkType,
  maskedConfig,
  shownUrl,
  sinkConfigSchemas,
  sinkCredential,
  sinkTarget,
  type SinkType,
} from "./sink-config";
import { checkSink } from "./sink-send";

// Destinations the team registers. The secret is read only by the sender (lib/db.ts omits it from
// every other read); an answer carries it whole once, when Tally made or accepted it.

export const DEFAULT_DESTINATION_ID = "dst_default";

/** A fresh Standard Webhooks secret: 24 random bytes (32 base64 characters, no padding). */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function parseEvents(stored: string): ForwardEvent[] {
  const known = new Set<string>(FORWARD_EVENTS);
  return stored.split(",").filter((e): e is ForwardEvent => known.has(e));
}

type Row = Omit<Destination, "secret" | "config"> & { config?: string | null };

/** A sink's stored config with every credential masked; null for a webhook (or a config not read). */
function viewConfig(d: Row): Record<string, unknown> | null {
  if (!isSinkType(d.type) || !d.config) return null;
  try {
    return maskedConfig(d.type, JSON.parse(d.config) as Record<string, unknown>);
  } catch {
    return null;
  }
}

export function toView(d: Row): DestinationView {
  return {
    id: d.id,
    type: d.type,
    // A query value, user info or a key in the path (Slack, Discord, Zapier) of a destination's URL is a
    // credential: never shown after creation. A sink's url is its target, masked when it was saved.
    url: isSinkType(d.type) ? d.url : shownUrl(d.url),
    config: viewConfig(d),
    events: parseEvents(d.events),
    enabled: d.enabled,
    source: d.source,
    secretLast4: d.secretLast4,
    createdAt: d.createdAt.toISOString(),
    disabledAt: d.disabledAt?.toISOString() ?? null,
  };
}

export async function listDestinations(): Promise<DestinationView[]> {
  const rows = await db().destination.findMany({
    orderBy: [{ enabled: "desc" }, { createdAt: "asc" }],
    omit: { config: false },
  });
  return rows.map(toView);
}

/** Registers a destination; the answer is the only place its whole secret is ever returned. */
export async function createDestination(
  input: CreateDestination,
  actor: string,
): Promise<DestinationView & { secret?: string }> {
  const type = input.type ?? "webhook";
  if (isSinkType(type)) return createSinkDestination(type, input, actor);
  if (input.url === undefined) throw new BadRequest("Invalid body: url: url is required");
  // What an operator configures at run time must not reach private addresses, Tally or the simulator.
  await checkDestinationUrl(input.url, guardFor(getConfig()));
  const secret = input.secret ?? generateSecret();
  // One enabled destination per URL: two would send every event twice to the same receiver.
  const same = await db().destination.findFirst({ where: { url: input.url, enabled: true }, select: { id: true } });
  if (same)
    throw new Conflict(`An enabled destination already sends to this URL (${same.id}); disable it first`, {
      id: same.id,
    });
  const row = await db().destination.create({
    data: {
      id: `dst_${randomBytes(9).toString("base64url")}`,
      url: input.url,
      events: input.events.join(","),
      secret,
      secretLast4: secret.slice(-4),
      source: "api",
      createdBy: actor,
    },
  });
  return { ...toView(row), secret };
}

/**
 * A sink: its config is checked by the sink itself (connect; create or check the table) before anything
 * is saved, so a bad one is a 400 with the sink's reason. Its credentials are stored, never returned.
 */
async function createSinkDestination(type: SinkType, input: CreateDestination, actor: string) {
  const parsed = sinkConfigSchemas[type].safeParse(input.config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(`Invalid body: config.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  const config = parsed.data as Record<string, unknown>;
  const target = sinkTarget(type, config);
  const same = await db().destination.findFirst({ where: { url: target, enabled: true }, select: { id: true } });
  if (same)
    throw new Conflict(`An enabled destination already writes to this target (${same.id}); disable it first`, {
      id: same.id,
    });
  const settings = getConfig();
  await checkSink(type, config, guardFor(settings), settings.TALLY_FORWARD_TIMEOUT_MS);
  const credential = sinkCredential(type, config);
  const row = await db().destination.create({
    data: {
      id: `dst_${randomBytes(9).toString("base64url")}`,
      type,
      url: target,
      config: JSON.stringify(config),
      events: (input.events as string[]).join(","),
      secret: "",
      secretLast4: credential.length >= 12 ? credential.slice(-4) : "",
      source: "api",
      createdBy: actor,
    },
    omit: { config: false },
  });
  return toView(row);
}

/** Disable stops new events at once; queued ones are skipped when their turn comes (nothing is sent). */
export async function setDestinationEnabled(id: string, enabled: boolean, actor: string): Promise<DestinationView> {
  const row = await db().destination.findUnique({ where: { id } });
  if (!row) throw new NotFound(`No destination ${id}`);
  if (enabled && !row.enabled) {
    if (row.source !== "config" && !isSinkType(row.type)) await checkDestinationUrl(row.url, guardFor(getConfig()));
    const same = await db().destination.findFirst({ where: { url: row.url, enabled: true }, select: { id: true } });
    if (same) throw new Conflict(`Another enabled destination already sends to this URL (${same.id})`, { id: same.id });
  }
  const updated = await db().destination.update({
    where: { id },
    omit: { config: false },
    data: enabled
      ? { enabled: true, disabledAt: null, disabledBy: null }
      : { enabled: false, disabledAt: row.disabledAt ?? new Date(), disabledBy: actor },
  });
  return toView(updated);
}

/**
 * TALLY_FORWARD_URL and TALLY_FORWARD_SECRET as a destination for all three events, created or kept in
 * step with the environment at every start. An operator's "disable" survives restarts: the
 * environment sets where and how to sign, the operator whether to send.
 */
export async function ensureDefaultDestination(config: TallyConfig = getConfig()): Promise<void> {
  const url = config.TALLY_FORWARD_URL;
  const secret = config.TALLY_FORWARD_SECRET;
  if (!url || !secret) return;
  const data = { url, secret, secretLast4: secret.slice(-4), events: JOB_EVENTS.join(","), source: "config" };
  const existing = await db().destination.findUnique({
    where: { id: DEFAULT_DESTINATION_ID },
    select: { enabled: true },
  });
  await db().destination.upsert({
    where: { id: DEFAULT_DESTINATION_ID },
    create: { id: DEFAULT_DESTINATION_ID, ...data, createdBy: "config" },
    update: data,
  });
  if (existing && !existing.enabled)
    log.warn("the default forwarding destination is disabled by an operator; enable it on the Outbound page", {
      id: DEFAULT_DESTINATION_ID,
    });
}
