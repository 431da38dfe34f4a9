// GET /api/overview/throughput?range=hour|day — deliveries and outcomes per minute (hour) or per hour (day)
import { operatorRoute } from "@/lib/http";
import { throughput, throughputQuerySchema } from "@/lib/overview";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Deliveries and outcomes per minute (hour) or per hour (day)",
    query: throughputQuerySchema,
  },
  ({ query }) => throughput(query.range),
);
