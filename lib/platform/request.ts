import "server-only";
import type { z } from "zod";
import { InvalidResponse, Network, RateLimited, PlatformError, Timeout, Upstream } from "./errors";
import { fullJitter, parseRetryAfter, RateLimiter, realSleep, type Limiter, type Sleep } from "./rate-limit";
import { answerClass, callRank, currentPurpose, type AnswerClass, type CallPurpose } from "./purpose";
import { errorFromResponse } from "./response-errors";
import { AnswerTooLarge, fetchSend, nodeSend, type Answer } from "./send";
import { LocalBreaker, type Breaker, type Pass } from "./breaker";
import { inSpan, setSpanAttributes, SpanKind } from "../tracing";

export type ClientOptions = {
  baseUrl: string;
  apiKey: string;
  /** Per attempt, including reading the body. */
  timeoutMs?: number;
  /** The most an answer's body may hold, decoded (default 128 MiB): past it the answer is not read. */
  maxAnswerBytes?: number;
  requestsPerSecond?: number;
  burst?: number;
  /** A rate budget from outside (shared across processes); without one, a RateLimiter in memory. */
  limiter?: Limiter;
  /** Extra attempts for GETs after a 5xx, network error or timeout. */
  maxGetRetries?: number;
  /** Extra attempts after a 429 (any method: a 429 means nothing was done). */
  maxRateLimitRetries?: number;
  /** Backoff base for GET retries (full jitter) and for 429s that carry no Retry-After. */
  retryBaseMs?: number;
  retryCapMs?: number;
  /** Calls in a row answered 5xx or not at all before the platform counts as down (default 5: more than one GET and its retries). */
  outageAfter?: number;
  /** The longest outage pause (default 60 s); it doubles from 1 s with each further failure. */
  outageCapMs?: number;
  /**
   * The circuit breaker (breaker.ts): a SharedBreaker keeps it in the database for every process; without
   * one, a LocalBreaker in memory with outageAfter and outageCapMs.
   */
  breaker?: Breaker;
  userAgent?: string;
  /** Instead of Node's http module (lib/platform/send.ts): tests that record or tamper with calls. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
  /** Observers of every attempt (one function or several: the API budget counter, a metrics exporter…). */
  onCall?: CallObserver | readonly CallObserver[];
};

/** One attempt's facts; `answer` classes the status (null status: timeout or network error). */
export type CallInfo = {
  method: string;
  path: string;
  endpoint: string;
  status: number | null;
  purpose: CallPurpose;
  answer: AnswerClass;
};
export type CallObserver = (info: CallInfo) => void;

/** Per call: the caller's cancellation, an absolute deadline (ms, same clock as `now`) and, when the
 * ambient one (withPurpose) is not right, the purpose it is accounted under. */
export type CallOptions = { signal?: AbortSignal; deadline?: number; purpose?: CallPurpose };

export type Method = "GET" | "POST" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | Date | null | undefined;

export type RequestSpec<S extends z.ZodType | null> = {
  method: Method;
  path: string;
  /** Path template for metrics and messages, e.g. `GET /v1/extract/{job_id}`. */
  endpoint: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: S;
};

export type Parsed<S extends z.ZodType | null> = S extends z.ZodType ? z.output<S> : void;

export type Transport = {
  request<S extends z.ZodType | null>(spec: RequestSpec<S>, call?: CallOptions): Promise<Parsed<S>>;
  limiter: Limiter;
};

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? "?" + text : "";
}

/** 128 MiB: a page of 50 results of realistic pages (20–200 KB of markdown, about three times that of html) is 5–40 MB. */
export const DEFAULT_MAX_ANSWER_BYTES = 128 * 1024 * 1024;

/** The one request path of the client: rate budget, timeout, typed errors, parsing, retries. */
export function createTransport(opts: ClientOptions): Transport {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const send = opts.fetch ? fetchSend(opts.fetch) : nodeSend;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxAnswerBytes = opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const maxGetRetries = opts.maxGetRetries ?? 3;
  const maxRateLimitRetries = opts.maxRateLimitRetries ?? 5;
  const retryBaseMs = opts.retryBaseMs ?? 250;
  const retryCapMs = opts.retryCapMs ?? 30_000;
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  // The circuit breaker (breaker.ts): after calls in a row answered 5xx or not at all, calls fail at
  // once without being sent until one probe gets an answer.
  const breaker = opts.breaker ?? new LocalBreaker({ outageAfter: opts.outageAfter, capMs: opts.outageCapMs, now });
  const platformFailed = <E extends PlatformError>(err: E, pass: Pass): E => {
    // The reason the dashboard shows (the endpoint and status, the platform's own message): bounded.
    const ms = pass.failed(err.message.slice(0, 300));
    if (ms !== undefined) err.platformDownMs = ms;
    return err;
  };
  const observers: readonly CallObserver[] =
    opts.onCall === undefined ? [] : typeof opts.onCall === "function" ? [opts.onCall] : opts.onCall;
  const observe = (
    spec: { method: string; path: string; endpoint: string },
    call: CallOptions,
    status: number | null,
    timedOut = false,
  ) => {
    if (observers.length === 0) return;
    const info: CallInfo = {
      method: spec.method,
      path: spec.path,
      endpoint: spec.endpoint,
      status,
      purpose: call.purpose ?? currentPurpose(),
      answer: answerClass(status, timedOut),
    };
    for (const o of observers) o(info);
  };
  const limiter =
    opts.limiter ??
    new RateLimiter({
      requestsPerSecond: opts.requestsPerSecond ?? 10,
      burst: opts.burst ?? opts.requestsPerSecond ?? 10,
      now,
      sleep,
    });

  const headers = (hasBody: boolean): Record<string, string> => ({
    "X-Api-Key": opts.apiKey,
    Accept: "application/json",
    "User-Agent": opts.userAgent ?? "tally-scraper-client/1.0",
    ...(hasBody ? { "Content-Type": "application/json" } : {}),
  });

  async function attempt<S extends z.ZodType | null>(
    spec: RequestSpec<S>,
    call: CallOptions,
    rateLimitAttempt: number,
    pass: Pass,
  ): Promise<Parsed<S>> {
    const url = baseUrl + spec.path + buildQuery(spec.query);
    const budget = call.deadline === undefined ? timeoutMs : Math.min(timeoutMs, call.deadline - now());
    if (budget <= 0) throw new Timeout(`${spec.endpoint}: deadline reached before the request was sent`);
    // One controller per attempt, linked to the caller's signal by a listener removed afterwards:
    // AbortSignal.any() on a long-lived caller signal (a worker's shutdown signal) leaks on Node 20.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, budget);
    const onCallerAbort = () => controller.abort();
    call.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const signal = controller.signal;
    let res: Answer;
    try {
      res = await send(url, {
        method: spec.method,
        headers: headers(spec.body !== undefined),
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal,
        maxBytes: maxAnswerBytes,
      });
    } catch (err) {
      if (err instanceof AnswerTooLarge) {
        // The platform answered: not an outage, and asking again would get the same answer.
        observe(spec, call, err.status);
        pass.answered();
        throw new InvalidResponse(
          `${spec.endpoint}: the answer is larger than ${err.limit} bytes (TALLY_PLATFORM_MAX_ANSWER_MB); it was not read`,
          err.status,
          [{ path: "(body)", message: `larger than ${err.limit} bytes` }],
        );
      }
      observe(spec, call, null, timedOut);
      if (call.signal?.aborted) throw call.signal.reason;
      if (timedOut) throw platformFailed(new Timeout(`${spec.endpoint}: no response within ${budget} ms`), pass);
      throw platformFailed(
        new Network(`${spec.endpoint}: ${err instanceof Error ? err.message : String(err)}`, err),
        pass,
      );
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onCallerAbort);
    }
    // Pause everyone before anything else can observe this answer (onCall included).
    const retryAfterMs =
      res.status === 429
        ? (parseRetryAfter(res.header("retry-after"), now()) ?? Math.min(retryCapMs, 1000 * 2 ** rateLimitAttempt))
        : 0;
    if (res.status === 429) limiter.pause(retryAfterMs);
    observe(spec, call, res.status);
    setSpanAttributes({ "http.response.status_code": res.status });

    if (res.status < 200 || res.status >= 300) {
      const err = errorFromResponse(res.status, res.text, res.header, { endpoint: spec.endpoint, retryAfterMs });
      if (res.status >= 500) throw platformFailed(err, pass);
      pass.answered();
      throw err;
    }
    pass.answered();
    if (spec.schema === null) return undefined as Parsed<S>;
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      throw new InvalidResponse(`${spec.endpoint}: response is not JSON`, res.status, [
        { path: "(body)", message: "not JSON" },
      ]);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        path: i.path.map(String).join(".") || "(root)",
        message: i.message,
      }));
      const list = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
      throw new InvalidResponse(`${spec.endpoint}: unexpected response: ${list}`, res.status, issues);
    }
    return parsed.data as Parsed<S>;
  }

  function isRetryableForGet(e: PlatformError): boolean {
    return (
      (e instanceof Upstream && e.retryable) || e instanceof Network || (e instanceof Timeout && e.status === null)
    );
  }

  /**
   * With tracing on, one client span per call (its retries included), named by the endpoint's template
   * (`GET /v1/extract/{job_id}`): method, template, page, final status and resends; never the key or a body.
   */
  function request<S extends z.ZodType | null>(spec: RequestSpec<S>, call: CallOptions = {}): Promise<Parsed<S>> {
    return inSpan(
      spec.endpoint,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": spec.method,
          "url.template": spec.endpoint.slice(spec.method.length + 1),
          "tally.platform.purpose": call.purpose ?? currentPurpose(),
          ...(typeof spec.query?.page === "number" ? { "tally.platform.page": spec.query.page } : {}),
        },
      },
      () => requestWithRetries(spec, call),
    );
  }

  async function requestWithRetries<S extends z.ZodType | null>(
    spec: RequestSpec<S>,
    call: CallOptions,
  ): Promise<Parsed<S>> {
    let getRetries = 0;
    let rateLimitRetries = 0;
    for (;;) {
      call.signal?.throwIfAborted();
      const pass = await breaker.admit(spec.endpoint);
      try {
        await limiter.acquire({
          signal: call.signal,
          deadline: call.deadline,
          rank: callRank(call.purpose ?? currentPurpose()),
        });
        // Opened while this call waited for its slot: not sent (the probe alone goes).
        pass.recheck(spec.endpoint);
        return await attempt(spec, call, rateLimitRetries, pass);
      } catch (err) {
        if (!(err instanceof PlatformError)) throw err;
        const pastDeadline = (waitMs: number) => call.deadline !== undefined && now() + waitMs > call.deadline;
        if (err instanceof RateLimited) {
          // attempt() already paused the whole client; the retry queues behind that pause.
          if (rateLimitRetries >= maxRateLimitRetries || pastDeadline(err.retryAfterMs)) throw err;
          rateLimitRetries++;
          continue;
        }
        // The platform counts as down: no retry here; the caller hears how long to wait.
        if (err.platformDownMs !== undefined) throw err;
        // Only idempotent reads are retried: a POST that failed mid-flight may have created a job.
        if (spec.method === "GET" && isRetryableForGet(err) && getRetries < maxGetRetries) {
          const waitMs = fullJitter(getRetries, retryBaseMs, retryCapMs, random);
          if (pastDeadline(waitMs)) throw err;
          getRetries++;
          setSpanAttributes({ "http.request.resend_count": getRetries + rateLimitRetries });
          await sleep(waitMs, call.signal);
          continue;
        }
        throw err;
      } finally {
        pass.release();
      }
    }
  }

  return { request, limiter };
}
