import { Badge } from "@/components/ui/badge";
import { SafeUrl } from "@/components/jobs/safe-url";
import { revealControls } from "@/components/jobs/safe-text";
import type { ResultPreview as Result } from "@/lib/jobs";

// Scraped content is hostile until proven otherwise, and here it never gets the chance:
// - markdown is shown as text (React escapes it; no markdown renderer, so no links or images);
// - HTML is shown either as escaped source, or inside an iframe with an EMPTY sandbox: no scripts,
//   no forms, no plugins, no top navigation, and a unique origin (no cookies, no same-origin reach).
//   The page's CSP (inherited by srcdoc frames) also blocks scripts and outside images.
// No dangerouslySetInnerHTML anywhere. Long lines wrap; a 20,000-character word cannot widen the page.

const pre =
  "max-h-96 max-w-full overflow-auto whitespace-pre-wrap break-words rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs [overflow-wrap:anywhere]";

export function ResultPreview({ result }: { result: Result }) {
  return (
    <article
      className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-3"
      aria-label={`Result ${result.itemKey}`}
    >
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={result.status === "completed" ? "good" : result.status === "failed" ? "bad" : "neutral"}>
          {result.status}
        </Badge>
        <span className="text-xs text-slate-500">item {revealControls(result.itemKey).slice(0, 120)}</span>
        <span className="text-xs text-slate-500">{result.format}</span>
        {result.tokensCharged > 0 && (
          <span className="text-xs text-slate-500">
            {result.tokensCharged} {result.tokensCharged === 1 ? "token" : "tokens"}
          </span>
        )}
        <span className="min-w-0 text-xs">
          <SafeUrl url={result.url} />
        </span>
      </header>
      {result.errorMessage && (
        <p className="break-words text-sm text-red-700">
          {result.errorCode ? `${result.errorCode}: ` : ""}
          {revealControls(result.errorMessage)}
        </p>
      )}
      {result.bodyError &&
        (result.bodyError.startsWith("body removed by retention") ? (
          // Retention's doing, as configured: said plainly, not as an error.
          <p className="break-words text-sm text-slate-600" data-testid="body-removed">
            Body {revealControls(result.bodyError.slice("body ".length))}
          </p>
        ) : (
          <p className="break-words text-sm text-red-700" data-testid="body-error">
            Body cannot be read: {revealControls(result.bodyError)}
          </p>
        ))}
      {result.truncated && (
        <p className="text-xs text-amber-700">Cut to the first 100,000 characters for the preview.</p>
      )}
      {result.markdown !== null && (
        <details open={result.html === null}>
          <summary className="cursor-pointer text-sm font-medium">Markdown (shown as text)</summary>
          <pre className={pre} data-testid="markdown-preview" tabIndex={0} aria-label="Markdown, as text">
            {revealControls(result.markdown)}
          </pre>
        </details>
      )}
      {result.html !== null && (
        <>
          <details open>
            <summary className="cursor-pointer text-sm font-medium">
              HTML, rendered in a sandbox without scripts
            </summary>
            <iframe
              sandbox=""
              srcDoc={result.html}
              title={`Sandboxed rendering of result ${result.itemKey}`}
              referrerPolicy="no-referrer"
              loading="lazy"
              className="h-80 w-full rounded border border-slate-200 bg-white"
              data-testid="html-frame"
            />
          </details>
          <details>
            <summary className="cursor-pointer text-sm font-medium">HTML source</summary>
            <pre className={pre} data-testid="html-source" tabIndex={0} aria-label="HTML source, as text">
              {revealControls(result.html)}
            </pre>
          </details>
        </>
      )}
      {result.checkVerdict && result.checkVerdict !== "ok" && (
        <p className="break-words text-sm text-amber-800" data-testid="withheld">
          Withheld by a content check ({result.checkVerdict}
          {result.checkName ? (
            <>
              : <span className="font-mono">{revealControls(result.checkName)}</span>
            </>
          ) : null}
          ): the page was not stored as this URL&apos;s body.
          {result.checkExcerpt && (
            <q className="mt-1 block italic text-slate-700">{revealControls(result.checkExcerpt)}</q>
          )}
        </p>
      )}
      {result.markdown === null &&
        result.html === null &&
        !result.errorMessage &&
        !result.bodyError &&
        !(result.checkVerdict && result.checkVerdict !== "ok") && (
          <p className="text-sm text-slate-600">No content stored.</p>
        )}
    </article>
  );
}
