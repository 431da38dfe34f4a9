import { rungName, type Rung } from "@/lib/runs/client";

// One token a page at the first rung (the platform's price table); each further rung of the ladder
// costs a token more for each URL whose page fails its checks.

/** What a list of `urls` costs at the first rung, and what the ladder's further rungs can add. */
export function TokenEstimate({ urls, ladder, per = "" }: { urls: number; ladder: readonly Rung[]; per?: string }) {
  const extra = Math.max(0, ladder.length - 1);
  const n = (v: number) => v.toLocaleString("en");
  return (
    <p className="text-sm text-slate-700" data-testid="token-estimate">
      Estimated cost{per}: <span className="font-semibold tabular-nums">{n(urls)}</span>{" "}
      {urls === 1 ? "token" : "tokens"} at the first rung (one a page).{" "}
      {extra === 0 ? (
        <>No escalation: a page that fails its checks is final at once, at no extra cost.</>
      ) : (
        <>
          Pages that fail their content checks climb the escalation ladder (
          {ladder.slice(1).map(rungName).join(", then ")}
          ): each rung costs another token per such page, so 10% of bad pages would add up to{" "}
          {n(Math.ceil(urls * 0.1 * extra))}, and the most it can cost is {n(urls * ladder.length)}.
        </>
      )}
    </p>
  );
}
