import "server-only";
import { randomBytes } from "node:crypto";
import type { WebhookEventType } from "@/lib/platform/contract";
import { iso } from "./http";

export type Subscription = {
  id: string;
  url: string;
  description: string | null;
  isActive: boolean;
  eventType: WebhookEventType;
  createdAt: number;
  updatedAt: number;
  /** Only the current secret exists: rotation invalidates the old one at once, like the platform. */
  secret: string;
};

// Secrets come from the OS, not the seeded stream: replaying a seed must not replay credentials.
const newSecret = () => "whsec_" + randomBytes(24).toString("base64");

/** Webhook subscriptions of the one simulated account. */
export class WebhookStore {
  private readonly subs = new Map<string, Subscription>();

  list(): Subscription[] {
    return [...this.subs.values()];
  }

  get(id: string): Subscription | undefined {
    return this.subs.get(id);
  }

  size(): number {
    return this.subs.size;
  }

  clear(): void {
    this.subs.clear();
  }

  create(id: string, input: { url: string; event_type: WebhookEventType; description?: string | null }): Subscription {
    const now = Date.now();
    const sub: Subscription = {
      id,
      url: input.url,
      description: input.description ?? null,
      isActive: true,
      eventType: input.event_type,
      createdAt: now,
      updatedAt: now,
      secret: newSecret(),
    };
    this.subs.set(id, sub);
    return sub;
  }

  /** null on a non-nullable field means "unchanged"; description null clears it. */
  update(
    id: string,
    patch: {
      url?: string | null;
      description?: string | null;
      is_active?: boolean | null;
      event_type?: WebhookEventType | null;
    },
  ): Subscription | undefined {
    const sub = this.subs.get(id);
    if (!sub) return undefined;
    if (patch.url != null) sub.url = patch.url;
    if (patch.description !== undefined) sub.description = patch.description;
    if (patch.is_active != null) sub.isActive = patch.is_active;
    if (patch.event_type != null) sub.eventType = patch.event_type;
    sub.updatedAt = Date.now();
    return sub;
  }

  delete(id: string): boolean {
    return this.subs.delete(id);
  }

  rotate(id: string): string | undefined {
    const sub = this.subs.get(id);
    if (!sub) return undefined;
    sub.secret = newSecret();
    sub.updatedAt = Date.now();
    return sub.secret;
  }

  active(eventType: WebhookEventType): Subscription[] {
    return this.list().filter((s) => s.isActive && s.eventType === eventType);
  }
}

/** The wire object; the secret appears only where the caller adds it (create). */
export function webhookDoc(sub: Subscription) {
  return {
    id: sub.id,
    url: sub.url,
    description: sub.description,
    is_active: sub.isActive,
    event_type: sub.eventType,
    created_at: iso(sub.createdAt),
    updated_at: iso(sub.updatedAt),
  };
}
