// POST /webhooks/geonode — the source article's path: verify with every active secret, record, enqueue
import { handleDelivery, methodNotAllowed } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

export const POST = handleDelivery;
export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
