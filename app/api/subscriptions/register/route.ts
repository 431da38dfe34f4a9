// POST /api/subscriptions/register — register the missing subscriptions at TALLY_PUBLIC_URL; answers the list
import { PLATFORM_ERRORS } from "@/lib/http/route-doc";
import { operatorRoute } from "@/lib/http/operator-route";
import { registerAction } from "@/lib/subscriptions/actions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Register the missing subscriptions at TALLY_PUBLIC_URL; answers the list",
    errors: [409, ...PLATFORM_ERRORS],
  },
  ({ actor }) => registerAction(actor),
);
