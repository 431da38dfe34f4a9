// A signal that aborts when `parent` does or after `ms`, whichever comes first. Not
// AbortSignal.any([parent, AbortSignal.timeout(ms)]): on Node 20 the timeout signal inside any() is
// held weakly and can be collected before it fires, and then nothing bounds the call (found with a
// destination that never answers: the send waited for the worker's own 10 s limit, not the 2 s one).
// The timer here holds the controller, so it fires; `done()` clears it and the parent's listener.

export type Deadline = { signal: AbortSignal; timedOut: () => boolean; done: () => void };

export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
