// lib/demo's surface for client components (no server code): what other folders and the browser may import.
export {
  RATE_KNOBS,
  type RateKnob,
  type SimulatorKnobs,
  type SimulatorKnobsPatch,
  simulatorKnobsPatchSchema,
  simulatorKnobsSchema,
} from "./knobs-contracts";
