import "server-only";
import { setApiBaseUrl, type TallyConfig } from "../config";
import { log } from "../log";
import { registerSubscriptions } from "../subscriptions";
import { createSimulator, type RunningSimulator } from "../simulator";
import { startDemoTraffic } from "./traffic";
import { singleton } from "../runtime";

// Demo mode (no API key): run the simulator in-process with its demo faults (some dropped,
// duplicated and early webhooks, an occasional 429 and failed job), point the client at it,
// register the three subscriptions at our own receiver, and submit a trickle of jobs.

type Demo = { simulator: RunningSimulator | null; stopTraffic: (() => void) | null };

async function listen(port: number, bodyBytes: [number, number]): Promise<RunningSimulator> {
  const make = () =>
    createSimulator({ mode: "demo", config: { bodyBytes }, log: (msg) => log.debug("simulator", { msg }) });
  try {
    return await make().listen(port);
  } catch (err) {
    // Another process (a second Tally, a test) holds the port: any free port will do for us.
    if (port === 0 || !(err instanceof Error && "code" in err && err.code === "EADDRINUSE")) throw err;
    log.warn("simulator port in use; using a free port instead", { port });
    return make().listen(0);
  }
}

async function registerWithRetries(attempts = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      const r = await registerSubscriptions("demo");
      log.info("demo subscriptions ready", { registered: r.registered, repaired: r.repaired, unchanged: r.unchanged });
      return;
    } catch (err) {
      // The demo platform fails now and then on purpose (a 5xx on a POST is not retried by the client).
      if (i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 500 * i));
    }
  }
}

async function startSimulator(config: TallyConfig): Promise<RunningSimulator | null> {
  if (config.SCRAPER_API_BASE_URL) return null;
  const simulator = await listen(config.TALLY_SIM_PORT, config.TALLY_SIM_BODY_BYTES);
  setApiBaseUrl(simulator.url);
  log.info("demo simulator started", { url: simulator.url });
  return simulator;
}

async function start(config: TallyConfig, ready: (simulator: RunningSimulator | null) => void): Promise<Demo> {
  const simulator = await startSimulator(config);
  ready(simulator);
  if (config.TALLY_DELIVERY_MODE !== "polling") await registerWithRetries();
  // The trickle is a schedule like the others: only processes with TALLY_SCHEDULER=on run it.
  const traffic =
    config.TALLY_DEMO_TRAFFIC === "on" && config.TALLY_DEMO_JOBS_PER_MINUTE > 0 && config.TALLY_SCHEDULER === "on";
  const stopTraffic = traffic ? startDemoTraffic(config.TALLY_DEMO_JOBS_PER_MINUTE) : null;
  return { simulator, stopTraffic };
}

/**
 * Starts demo mode once per process. The first promise resolves as soon as the platform (simulator)
 * is reachable; `done` when the webhooks are registered and the traffic runs.
 */
export function startDemo(config: TallyConfig): { platformReady: Promise<void>; done: Promise<Demo> } {
  return singleton("demo", () => {
    let resolveReady: () => void = () => undefined;
    const platformReady = new Promise<void>((r) => (resolveReady = r));
    const done = start(config, () => resolveReady());
    // A failed start must not leave anyone waiting for the platform.
    done.catch(() => resolveReady());
    return { platformReady, done };
  });
}

/** Started first by the server (lib/boot.ts): resolves once the platform can be called. */
export async function startDemoMode(config: TallyConfig): Promise<void> {
  if (config.mode !== "demo") return;
  const demo = startDemo(config);
  demo.done.catch((err) =>
    log.error("demo mode could not start", { error: err instanceof Error ? err.message : String(err) }),
  );
  // The worker and pollers need the platform's address; registration waits for the server to listen.
  await demo.platformReady;
}
