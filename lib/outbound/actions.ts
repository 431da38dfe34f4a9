import "server-only";
import { audited } from "../audit";
import type { CreateDestination, DestinationView, ReplayBody, ReplayResult } from "./contracts";
import { createDestination, setDestinationEnabled } from "./destinations";
import { replayDelivery, replayDestinationSince } from "./replay";

function sinkHostOf(config: Record<string, unknown> | undefined): string | null {
  const raw = config?.url ?? config?.endpoint;
  return typeof raw === "string" && URL.canParse(raw) ? new URL(raw).host : null;
}

// What the forwarding routes call: every operator mutation is audited. Audit details carry ids and
// counts, never a secret or a URL's query string.

export function createDestinationAction(
  input: CreateDestination,
  actor: string,
): Promise<DestinationView & { secret?: string }> {
  const type = input.type ?? "webhook";
  // A sink's host only: its config holds credentials, never written to the audit log.
  const host = input.url && URL.canParse(input.url) ? new URL(input.url).host : sinkHostOf(input.config);
  return audited(
    {
      actor,
      action: "destinations.create",
      detail: { type, events: input.events, secretGiven: input.secret !== undefined, host },
    },
    () => createDestination(input, actor),
    (d) => ({ id: d.id }),
  );
}

export function setDestinationEnabledAction(id: string, enabled: boolean, actor: string): Promise<DestinationView> {
  return audited({ actor, action: enabled ? "destinations.enable" : "destinations.disable", target: id }, () =>
    setDestinationEnabled(id, enabled, actor),
  );
}

export function replayAction(body: ReplayBody, actor: string): Promise<ReplayResult> {
  if ("deliveryId" in body) {
    return audited(
      { actor, action: "outbound.replay", target: String(body.deliveryId) },
      () => replayDelivery(body.deliveryId),
      (r) => ({ ...r }),
    );
  }
  return audited(
    { actor, action: "outbound.replay", target: body.destinationId, detail: { since: body.since } },
    () => replayDestinationSince(body.destinationId, new Date(body.since)),
    (r) => ({ ...r }),
  );
}
