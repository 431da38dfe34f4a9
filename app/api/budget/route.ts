// GET /api/budget — platform calls of the last hour by purpose and answer class against the rate budget, 429 pauses, calls per finished job
import { budgetViewSchema, getBudgetView } from "@/lib/platform";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Platform calls of the last hour by purpose and answer class against the rate budget",
    answer: budgetViewSchema,
  },
  () => getBudgetView(),
);
