// GET /api/destinations — forwarding destinations, secrets masked; POST — register one (a webhook: 201 with its secret, shown this once; a sink: its config checked by the sink first)
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import {
  createdDestinationSchema,
  createDestinationAction,
  createDestinationSchema,
  destinationListSchema,
  listDestinations,
} from "@/lib/outbound";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  { role: "viewer", summary: "Forwarding destinations, secrets masked", answer: destinationListSchema },
  async () => ({ items: await listDestinations() }),
);

export const POST = operatorRoute(
  {
    role: "admin",
    summary:
      "Register a destination: a webhook (`url`, its secret in this answer only) or a sink (`type` and `config`, checked by connecting; 400 with the sink's reason)",
    status: 201,
    answer: createdDestinationSchema,
    errors: [409],
    body: createDestinationSchema,
  },
  async ({ body, actor }) => {
    const created = await createDestinationAction(body, actor);
    // The only answer that ever carries a destination's whole secret: never cache it anywhere.
    return NextResponse.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
);
