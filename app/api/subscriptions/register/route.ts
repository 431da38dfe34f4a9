// POST /api/subscriptions/register — register the missing subscriptions at TALLY_PUBLIC_URL; answers the list
import { operatorRoute } from "@/lib/http/operator-route";
import { registerAction } from "@/lib/subscriptions/actions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute({ role: "admin" }, ({ actor }) => registerAction(actor));
