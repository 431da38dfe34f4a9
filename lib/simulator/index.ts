import "server-only";

export { createSimulator, type RunningSimulator, type Simulator, type SimulatorOptions } from "./server";
export {
  baseConfig,
  demoOverrides,
  simConfigPatchSchema,
  simConfigSchema,
  type SimConfig,
  type SimConfigPatch,
  type SimMode,
} from "./config";
export type { PerJobState, SimState } from "./core";
export type { FaultRequest } from "./routes-control";
export type { SeedRequest } from "./seed";
export { mulberry32 } from "./rng";
export { pageContent, type PageContent } from "./content";
