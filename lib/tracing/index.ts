import "server-only";
// lib/tracing's surface: OpenTelemetry traces (off unless an OTLP endpoint is set; docs/operations/tracing.md).
export {
  contextFromHeaders,
  publicParent,
  currentTraceId,
  currentTraceparent,
  failSpan,
  inSpan,
  injectTraceHeaders,
  linkActiveSpan,
  linkTo,
  queueParent,
  queueTraceContext,
  setSpanAttributes,
  SpanKind,
  startSpan,
  traceparentOf,
  tracingOn,
  withContext,
  type Attributes,
  type Link,
  type Span,
  type SpanOptions,
} from "./spans";
export {
  exportOnSignalledExit,
  flushTracing,
  startTracing,
  stopTracing,
  tracesProtocol,
  tracingWanted,
  type TracingConfig,
} from "./start";
