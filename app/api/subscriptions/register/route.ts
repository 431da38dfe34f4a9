// POST /api/subscriptions/register — register the missing subscriptions at TALLY_PUBLIC_URL; answers the list
import { operatorRoute, PLATFORM_ERRORS } from "@/lib/http";
import { registerAction } from "@/lib/subscriptions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Register the missing subscriptions at TALLY_PUBLIC_URL; answers the list",
    errors: [409, ...PLATFORM_ERRORS],
  },
  ({ actor }) => registerAction(actor),
);
