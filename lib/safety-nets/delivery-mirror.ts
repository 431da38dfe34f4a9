import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import type { Delivery } from "../platform";

// The platform's delivery log, mirrored for the dashboard: one upsert statement per page, keyed by
// the platform's record id, so reading the log again only refreshes the rows that changed.

export async function mirrorDeliveries(items: Delivery[], webhookId: string, subscriptionId: string): Promise<void> {
  if (items.length === 0) return;
  const now = new Date();
  const rows = items.map(
    (
      d,
    ) => Prisma.sql`(${d.id}, ${subscriptionId}, ${webhookId}, ${d.event_type}, ${d.job_id ?? null}, ${d.attempt_number},
      ${d.status}, ${d.http_status ?? null}, ${d.delivered_at ? new Date(d.delivered_at) : null}, ${new Date(d.created_at)}, ${now})`,
  );
  await db().$executeRaw`
    INSERT INTO "PlatformDelivery" ("id", "subscriptionId", "webhookId", "eventType", "jobId", "attemptNumber",
      "status", "httpStatus", "deliveredAt", "createdAt", "syncedAt")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("id") DO UPDATE SET "status" = excluded."status", "httpStatus" = excluded."httpStatus",
      "deliveredAt" = excluded."deliveredAt", "syncedAt" = excluded."syncedAt"`;
}
