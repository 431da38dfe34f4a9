// GET/POST /api/simulator/config — the demo simulator's fault knobs (404 in live mode); changes are audited
import { readSimulatorKnobs, saveSimulatorKnobs, simulatorKnobsPatchSchema, simulatorKnobsSchema } from "@/lib/demo";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The demo simulator's fault knobs (404 in live mode)",
    answer: simulatorKnobsSchema,
    errors: [404, 502],
  },
  () => readSimulatorKnobs(),
);

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Change some of the demo simulator's fault knobs (audited); answers all of them",
    answer: simulatorKnobsSchema,
    errors: [404, 502],
    body: simulatorKnobsPatchSchema,
  },
  ({ body, actor }) => saveSimulatorKnobs(body, actor),
);
