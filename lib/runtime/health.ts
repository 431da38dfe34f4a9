import "server-only";
import { version } from "../../package.json";
import { db } from "../db";

export type Health =
  | { status: "ok"; database: "ok"; version: string }
  | { status: "unavailable"; database: "unreachable"; reason: string; version: string };

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
