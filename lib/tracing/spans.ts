import "server-only";
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import { slot } from "../runtime";

// Tally's spans, through the OpenTelemetry API alone (the SDK is loaded by start.ts only when tracing is
// on). With tracing off every helper here is one flag read and a direct call: no span object, no
// context switch, nothing read from the request. Spans carry ids, names, counts and statuses: never a
// secret, a signature, a token or a body (an error's message can hold a destination's answer, so a
// failed span records the error's code or class, not its message).

const on = slot<boolean>("tracing.on");

/** True once startTracing() registered the SDK in this process. */
export function tracingOn(): boolean {
  return on.get() === true;
}

/** start.ts only. */
export function markTracingOn(value: boolean): void {
  on.set(value);
}

export { SpanKind };
export type { Attributes, Link, Span };

// Looked up once per module copy: getTracer() walks the global registry on every call (a receipt's
// span is made a few thousand times a second).
let cachedTracer: Tracer | undefined;
const tracer = () => (cachedTracer ??= trace.getTracer("tally"));

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** Starts a trace of its own (links say where from) instead of joining the active one. */
  root?: boolean;
  /** The parent, instead of the active context (a remote caller's, a queue item's). */
  parent?: Context;
};

function errorType(err: unknown): string {
  if (err && typeof err === "object") {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.length <= 64) return code;
    const name = (err as { name?: unknown }).name;
    if (typeof name === "string") return name;
  }
  return "Error";
}

/** Marks a span failed: the error's code or class only, never its message. */
export function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", errorType(err));
}

/**
 * Runs fn inside a span named `name` (ended when fn settles; a throw marks it failed and passes on).
 * With tracing off: fn() and nothing else.
 */
export function inSpan<T>(name: string, opts: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracingOn()) return fn(undefined);
  const parent = opts.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes, links: opts.links, root: opts.root },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        failSpan(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Starts a span the caller ends (a request answered by callbacks); undefined with tracing off. */
export function startSpan(name: string, opts: SpanOptions): { span: Span; context: Context } | undefined {
  if (!tracingOn()) return undefined;
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes, links: opts.links, root: opts.root },
    parent,
  );
  // The span's context is made only when asked for: the bare receiver hands the span on and never
  // needs one (a Context object a delivery less).
  return {
    span,
    get context() {
      return trace.setSpan(parent, span);
    },
  };
}

/** Runs fn with `ctx` as the active context (from startSpan). */
export function withContext<T>(ctx: Context | undefined, fn: () => T): T {
  return ctx ? context.with(ctx, fn) : fn();
}

/** The active span's attributes, set only when tracing is on (ids and counts, never secrets). */
export function setSpanAttributes(attributes: Attributes): void {
  if (!tracingOn()) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function format(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

function parse(value: string): SpanContext | undefined {
  const m = TRACEPARENT.exec(value);
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return undefined;
  return { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16), isRemote: true };
}

/** The active span's W3C traceparent, or null (tracing off, no span). */
export function currentTraceparent(): string | null {
  if (!tracingOn()) return null;
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? format(sc) : null;
}

/** A span's W3C traceparent (a queue item's context when the span is passed by hand, not made active). */
export function traceparentOf(span: Span): string {
  return format(span.spanContext());
}

/** The active trace's id for log lines; undefined with tracing off or outside a span. */
export function currentTraceId(): string | undefined {
  if (!tracingOn()) return undefined;
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? sc.traceId : undefined;
}

/**
 * What a producer writes into a queue item's `traceContext` column: the active span's traceparent, which
 * the item's first attempt continues (`parent`), or, prefixed `link `, a context the item's attempts only
 * link to from a trace of their own (`link`: replays, reconciliation, retries). Null with tracing off.
 */
export function queueTraceContext(mode: "parent" | "link" = "parent"): string | null {
  const tp = currentTraceparent();
  if (tp === null) return null;
  return mode === "link" ? `link ${tp}` : tp;
}

/**
 * The queue side: `stored` is the item's `traceContext`. A first attempt of an item stored in parent form
 * continues that trace; anything else (a retry, a reschedule, a replay, a reconciliation, an item whose
 * lease expired) starts a trace of its own with a link back, so no trace grows without bound.
 */
export function queueParent(stored: string | null, attempt: number): Pick<SpanOptions, "parent" | "root" | "links"> {
  if (!stored) return { root: true };
  const linked = stored.startsWith("link ");
  const sc = parse(linked ? stored.slice(5) : stored);
  if (!sc) return { root: true };
  if (!linked && attempt <= 1) return { parent: trace.setSpanContext(ROOT_CONTEXT, sc) };
  return { root: true, links: [{ context: sc }] };
}

/** A link to a stored traceparent (either form), for spans that gather several items (a sink batch). */
export function linkTo(stored: string | null): Link | undefined {
  if (!stored) return undefined;
  const sc = parse(stored.startsWith("link ") ? stored.slice(5) : stored);
  return sc ? { context: sc } : undefined;
}

/**
 * Adds a link to a stored traceparent (either form) to the active span: a run chunk's batch job, whose
 * trace began at its webhook, links to its run when it settles. Nothing with tracing off or no span.
 */
export function linkActiveSpan(stored: string | null): void {
  if (!tracingOn()) return;
  const link = linkTo(stored);
  if (link) trace.getActiveSpan()?.addLink(link);
}

type HeaderGetter = (name: string) => string | string[] | null | undefined;

/** The caller's context from its `traceparent` (and `tracestate`) header; the root context without one. */
export function contextFromHeaders(get: HeaderGetter): Context {
  // Most requests carry none (the platform's webhooks): nothing to parse.
  if (get("traceparent") == null) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, get, {
    get: (carrier, key) => carrier(key) ?? undefined,
    keys: () => ["traceparent", "tracestate"],
  });
}

/**
 * Where a PUBLIC request's span starts (the webhook receiver, issue 47): a caller anyone can be must
 * not choose Tally's trace ids or force sampling, so the span roots a trace of its own and keeps the
 * caller's `traceparent` as a link only. `trust` (TALLY_TRUST_TRACEPARENT=on, behind a proxy that sets
 * or strips the header) continues it as the API does.
 */
export function publicParent(get: HeaderGetter, trust: boolean): Pick<SpanOptions, "parent" | "root" | "links"> {
  const caller = contextFromHeaders(get);
  if (trust) return { parent: caller };
  const linked = trace.getSpanContext(caller);
  return {
    parent: ROOT_CONTEXT,
    root: true,
    links: linked && trace.isSpanContextValid(linked) ? [{ context: linked }] : undefined,
  };
}

/** Adds `traceparent` (and `tracestate`) for the active span to outgoing headers; nothing with tracing off. */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!tracingOn()) return headers;
  propagation.inject(context.active(), headers);
  return headers;
}
