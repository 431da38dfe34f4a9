// GET/POST /api/simulator/config — the demo simulator's fault knobs (404 in live mode); changes are audited
import { simulatorKnobsPatchSchema } from "@/lib/demo/knobs-contracts";
import { readSimulatorKnobs, saveSimulatorKnobs } from "@/lib/demo/knobs";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer" }, () => readSimulatorKnobs());

export const POST = operatorRoute({ role: "admin", body: simulatorKnobsPatchSchema }, ({ body, actor }) =>
  saveSimulatorKnobs(body, actor),
);
