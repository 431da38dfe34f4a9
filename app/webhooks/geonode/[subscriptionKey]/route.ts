// POST /webhooks/geonode/:subscriptionKey — verify with that subscription's secrets, record, enqueue
import { handleDelivery, methodNotAllowed } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

export const POST = handleDelivery;
export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
