// POST /api/alerts/test — send a test alert to one configured channel now; answers what the channel said
import { z } from "zod";
import { channelSchema, sendTestAlert, testResultSchema } from "@/lib/alerts";
import { operatorRoute } from "@/lib/http";

const body = z.object({ channel: channelSchema }).strict();

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Send a test alert to one configured channel now; answers what the channel said",
    answer: testResultSchema,
    errors: [409],
    body,
  },
  ({ body, actor }) => sendTestAlert(body.channel, actor),
);
