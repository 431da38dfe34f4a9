import "server-only";
import { context, propagation, trace } from "@opentelemetry/api";
import type { TallyConfig } from "../config";
import { slot } from "../runtime";
import { markTracingOn, tracingOn } from "./spans";

// The OpenTelemetry SDK, started once per process (server.ts, `npm run worker`, `npm run receiver`, the
// CLI tools that do work; lib/boot.ts for `next start`/`next dev`), only when an OTLP endpoint is set:
// without one nothing here loads the SDK, so a process without tracing pays for nothing but the
// @opentelemetry/api module. Spans go in batches to the collector over OTLP/HTTP (JSON, or protobuf when
// OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL says `http/protobuf`); the W3C
// trace-context propagator reads and writes `traceparent`; samplers are the standard ones, by name.

export type TracingConfig = Pick<
  TallyConfig,
  | "OTEL_EXPORTER_OTLP_ENDPOINT"
  | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
  | "OTEL_EXPORTER_OTLP_PROTOCOL"
  | "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
  | "OTEL_SDK_DISABLED"
  | "OTEL_SERVICE_NAME"
  | "OTEL_RESOURCE_ATTRIBUTES"
  | "OTEL_TRACES_SAMPLER"
  | "OTEL_TRACES_SAMPLER_ARG"
  | "OTEL_BSP_SCHEDULE_DELAY"
  | "OTEL_BSP_MAX_QUEUE_SIZE"
  | "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"
>;

type Provider = { forceFlush(): Promise<void>; shutdown(): Promise<void> };
const provider = slot<Provider>("tracing.provider");
const starting = slot<Promise<boolean>>("tracing.starting");

/** Whether this configuration asks for traces. */
export function tracingWanted(c: TracingConfig): boolean {
  return (
    c.OTEL_SDK_DISABLED !== "true" &&
    (c.OTEL_EXPORTER_OTLP_ENDPOINT ?? c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== undefined
  );
}

/**
 * Starts the SDK once per process when the configuration asks for it (a second call is the first's
 * answer). `processName` lands in the resource as `tally.process` (server, worker, receiver, a CLI tool).
 */
export function startTracing(c: TracingConfig, processName: string): Promise<boolean> {
  if (!tracingWanted(c)) return Promise.resolve(false);
  return starting.getOr(() => start(c, processName));
}

function resourceAttributes(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const i = pair.indexOf("=");
    if (i <= 0) continue;
    try {
      out[decodeURIComponent(pair.slice(0, i).trim())] = decodeURIComponent(pair.slice(i + 1).trim());
    } catch {
      // A malformed escape: the pair is left out, as the specification says.
    }
  }
  return out;
}

/** The traces' protocol: the traces-specific variable, else the general one, else JSON. */
export function tracesProtocol(c: TracingConfig): "http/json" | "http/protobuf" {
  return c.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? c.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/json";
}

async function start(c: TracingConfig, processName: string): Promise<boolean> {
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { resourceFromAttributes }, otlp] =
    await Promise.all([
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/core"),
      import("@opentelemetry/resources"),
      // The two official exporters differ only in the body they send (and its content-type).
      tracesProtocol(c) === "http/protobuf"
        ? import("@opentelemetry/exporter-trace-otlp-proto")
        : import("@opentelemetry/exporter-trace-otlp-http"),
    ]);
  const ratio = new sdk.TraceIdRatioBasedSampler(c.OTEL_TRACES_SAMPLER_ARG);
  const sampler = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    parentbased_always_off: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    parentbased_traceidratio: new sdk.ParentBasedSampler({ root: ratio }),
  }[c.OTEL_TRACES_SAMPLER];
  // The exporter reads the rest of the standard variables itself (headers, timeout, compression,
  // certificates); only the URL is given, so OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces added and a
  // traces endpoint is used as is, as the specification says.
  const url = c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${c.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`;
  const exporter = new otlp.OTLPTraceExporter({ url });
  const tracerProvider = new sdk.TracerProvider({
    resource: resourceFromAttributes({
      ...resourceAttributes(c.OTEL_RESOURCE_ATTRIBUTES),
      "service.name": c.OTEL_SERVICE_NAME,
      "tally.process": processName,
    }),
    sampler,
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: c.OTEL_BSP_SCHEDULE_DELAY,
        maxQueueSize: c.OTEL_BSP_MAX_QUEUE_SIZE,
        maxExportBatchSize: Math.min(c.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, c.OTEL_BSP_MAX_QUEUE_SIZE),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  provider.set(tracerProvider);
  markTracingOn(true);
  return true;
}

/** Exports what is left and stops: a process about to exit, after its work has stopped (server.ts, the scripts). */
export async function stopTracing(): Promise<void> {
  const p = provider.get();
  if (!p) return;
  provider.clear();
  markTracingOn(false);
  await p.shutdown().catch(() => undefined);
}

/** Exports the spans finished so far (CLI tools before they exit, tests). */
export async function flushTracing(): Promise<void> {
  if (tracingOn()) await provider.get()?.forceFlush();
}

// How long a signalled `next start` waits for its last export before it exits anyway.
const EXIT_EXPORT_DEADLINE_MS = 5_000;

/**
 * Plain `next start` and `next dev` (no server.ts): Next answers SIGTERM and SIGINT itself, closes its
 * server and then calls process.exit(), with no hook to wait on; an `exit` listener runs too late to send
 * anything. So from the signal on, process.exit() is held until the last spans are exported (at most
 * EXIT_EXPORT_DEADLINE_MS). Where nothing else answers the signal (NEXT_MANUAL_SIG_HANDLE set and no
 * handler of the operator's), the process exits once they are out, as it would have without tracing.
 * lib/boot.ts calls this when server.ts does not own the process's stop.
 */
export function exportOnSignalledExit(): void {
  if (!tracingOn() || holding.get()) return;
  holding.set(true);
  let held: Promise<void> | undefined;
  const hold = (signal: NodeJS.Signals) => {
    if (held) return;
    const exit = process.exit.bind(process);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, EXIT_EXPORT_DEADLINE_MS).unref());
    held = Promise.race([stopTracing(), deadline]);
    const exitAfterExport = (code?: number | string | null): never => {
      void held!.finally(() => exit(code));
      // Returns to the caller (Next's cleanup, at its end) while the export finishes.
      return undefined as never;
    };
    process.exit = exitAfterExport;
    if (process.listenerCount(signal) === 1) exitAfterExport(signal === "SIGINT" ? 130 : 143);
  };
  process.on("SIGTERM", hold);
  process.on("SIGINT", hold);
}
const holding = slot<boolean>("tracing.exit-held");
