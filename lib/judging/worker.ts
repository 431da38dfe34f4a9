import type { MessagePort } from "node:worker_threads";
import { runTask } from "./run-task";
import type { JudgeTask } from "./tasks";

// A judging thread's entry (piscina calls the default export once per task). scripts/judge-worker.mjs
// bundles this file on its own: it runs in a worker thread, outside Next's bundles. The first message
// on `port` says the thread has begun the task: the pool's time budget starts then, not while queued.
export default function judge({ task, port }: { task: JudgeTask; port: MessagePort }): unknown {
  port.postMessage(0);
  try {
    return runTask(task);
  } finally {
    port.close();
  }
}
