import { diffView } from "./diff-view";
import { runChecks } from "../content-checks";
import { compileRules, fingerprint } from "../runs";
import type { JudgeTask } from "./tasks";

// The body of every judging task: runs inside a pool thread (worker.ts), and in a test's own thread
// where a test wants the answer without the pool. Pure: no database, no network, no module state but
// a cache of compiled patterns.

const compiled = new Map<string, ReturnType<typeof compileRules>>();

function rulesOf(patterns: string[]) {
  const key = JSON.stringify(patterns);
  let rules = compiled.get(key);
  if (!rules) {
    if (compiled.size >= 100) compiled.clear();
    rules = compileRules(key);
    compiled.set(key, rules);
  }
  return rules;
}

export function runTask(task: JudgeTask): unknown {
  switch (task.kind) {
    case "checks":
      return runChecks(task.checks, { html: task.html, markdown: task.markdown, status: task.status });
    case "fingerprint":
      return fingerprint(task.markdown, task.html, rulesOf(task.patterns));
    case "diff":
      return diffView(task.before, task.after, task.context);
  }
}
