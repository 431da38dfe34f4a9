import "server-only";
import { z } from "zod";
import { audit } from "../audit";
import { getConfig, type TallyConfig } from "../config";
import { NotFound, UpstreamFailure } from "../errors";
import { simulatorKnobsSchema, type SimulatorKnobs, type SimulatorKnobsPatch } from "./knobs-contracts";

// The simulator's fault knobs, read and changed through its control API (/_sim/config) at the
// client's base URL. Only in demo mode: in live mode that URL is the real platform.

const TIMEOUT_MS = 5000;
const simErrorSchema = z.object({ message: z.string() });

function simulatorUrl(config: TallyConfig): string {
  if (config.mode === "live") {
    throw new NotFound("The simulator runs only in demo mode; Tally is in live mode, talking to the real platform.");
  }
  if (!config.apiBaseUrl) throw new UpstreamFailure("The simulator has not started yet; try again in a moment.");
  return `${config.apiBaseUrl}/_sim/config`;
}

async function call(url: string, init: RequestInit = {}): Promise<SimulatorKnobs> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), cache: "no-store" });
  } catch {
    throw new UpstreamFailure("The simulator could not be reached; is the server still starting?");
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const reason = simErrorSchema.safeParse(body);
    throw new UpstreamFailure(
      `The simulator refused the change: ${reason.success ? reason.data.message : `HTTP ${res.status}`}`,
    );
  }
  const knobs = simulatorKnobsSchema.safeParse(body);
  if (!knobs.success)
    throw new UpstreamFailure("The simulator answered with a configuration Tally does not understand");
  return knobs.data;
}

export async function readSimulatorKnobs(config = getConfig()): Promise<SimulatorKnobs> {
  return call(simulatorUrl(config));
}

/** Applies a validated patch and records it in the audit log, whether or not the simulator took it. */
export async function saveSimulatorKnobs(
  patch: SimulatorKnobsPatch,
  actor: string,
  config = getConfig(),
): Promise<SimulatorKnobs> {
  const url = simulatorUrl(config);
  try {
    const knobs = await call(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(patch),
    });
    await audit({ actor, action: "simulator.configure", target: "simulator", detail: patch });
    return knobs;
  } catch (err) {
    await audit({
      actor,
      action: "simulator.configure",
      target: "simulator",
      detail: { patch, error: String(err) },
      ok: false,
    });
    throw err;
  }
}
