// POST /api/alerts/test — send a test alert to one configured channel now; answers what the channel said
import { z } from "zod";
import { channelSchema, testResultSchema } from "@/lib/alerts/contracts";
import { sendTestAlert } from "@/lib/alerts/test-alert";
import { operatorRoute } from "@/lib/http/operator-route";

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
