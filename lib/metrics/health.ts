import "server-only";
import { z } from "zod";
import { version } from "../../package.json";
import { db } from "../db";

/** GET /api/health's 200 and 503 answers. */
export const healthOkSchema = z.object({ status: z.literal("ok"), database: z.literal("ok"), version: z.string() });
export const healthUnavailableSchema = z.object({
  status: z.literal("unavailable"),
  database: z.literal("unreachable"),
  reason: z.string(),
  version: z.string(),
});
export type Health = z.infer<typeof healthOkSchema> | z.infer<typeof healthUnavailableSchema>;

export async function checkHealth(): Promise<Health> {
  try {
    await db().$queryRawUnsafe("SELECT 1");
    return { status: "ok", database: "ok", version };
  } catch (err) {
    return {
      status: "unavailable",
      database: "unreachable",
      reason: err instanceof Error ? err.message.split("\n")[0] : "database check failed",
      version,
    };
  }
}
