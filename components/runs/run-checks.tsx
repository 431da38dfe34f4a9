import type { RunView } from "@/lib/runs/client";
import { Card } from "@/components/ui/card";

// What a run's pages are judged by (issue 39): its content checks, the default set filled in, and its
// escalation ladder (rung 0 is the run's own options; a page failing its checks is sent again one rung
// up). Phrases and selectors are the operator's own text, shown as text.

type Matcher = { text?: string; selector?: string };

function Matchers({ list }: { list: Matcher[] }) {
  return (
    <>
      {list.map((m, i) => (
        <span key={i}>
          {i > 0 && ", "}
          {m.selector !== undefined ? (
            <>
              selector <code className="break-all rounded bg-slate-100 px-1">{m.selector}</code>
            </>
          ) : (
            <span className="break-words">“{m.text}”</span>
          )}
        </span>
      ))}
    </>
  );
}

export function RunChecks({ run }: { run: RunView }) {
  const c = run.checks;
  const ladder = run.ladder ?? [];
  if (!c) return null;
  return (
    <Card title="Content checks">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>
          {c.minTextLength > 0
            ? `At least ${c.minTextLength.toLocaleString("en")} character${c.minTextLength === 1 ? "" : "s"} of visible text`
            : "No minimum of visible text"}
        </li>
        {c.mustContain.length > 0 && (
          <li>
            Must contain each of: <Matchers list={c.mustContain} />
          </li>
        )}
        {c.mustNotContain.length > 0 && (
          <li>
            Must contain none of: <Matchers list={c.mustNotContain} />
          </li>
        )}
        <li>
          {c.detectBlocks
            ? "Block pages detected (captcha, access denied, consent wall, empty shell, soft 404)"
            : "Block-page detector off"}
        </li>
      </ul>
      <div className="mt-3 text-sm text-slate-700">
        <span className="font-medium">Escalation:</span>{" "}
        {ladder.length <= 1 ? (
          "none: a page that fails its checks fails"
        ) : (
          <>
            a page that fails its checks is sent again one rung up, until one passes or the last fails
            <ol data-testid="run-ladder" className="mt-1 space-y-0.5 pl-1 [overflow-wrap:anywhere]">
              {ladder.map((r) => (
                <li key={r.rung}>
                  <span className="tabular-nums text-slate-500">{r.rung} ·</span> {r.name}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </Card>
  );
}
