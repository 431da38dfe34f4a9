// GET /api/health — public: database check and version; 503 when the database cannot be reached
import { NextResponse } from "next/server";
import { checkHealth } from "@/lib/runtime/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth();
  return NextResponse.json(health, { status: health.status === "ok" ? 200 : 503 });
}
