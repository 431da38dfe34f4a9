// Scraped and submitted URLs are untrusted: shown as text, linked only when they are http(s), and
// then opened without a referrer or an opener (the target page gets no handle on the dashboard).

import { revealControls } from "./safe-text";

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** `truncate`: one line cut with an ellipsis (the whole URL on hover) instead of wrapping mid-word. */
export function SafeUrl({
  url,
  className = "",
  truncate = false,
}: {
  url: string | null;
  className?: string;
  truncate?: boolean;
}) {
  if (!url) return <span className="text-slate-500">—</span>;
  const shown = revealControls(url);
  const wrap = truncate ? "block max-w-full truncate" : "break-all";
  const text = (
    <span className={`${wrap} ${className}`} title={truncate ? shown : undefined}>
      {shown}
    </span>
  );
  if (!isHttpUrl(url)) return text;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer noopener"
      title={truncate ? shown : undefined}
      className={`${wrap} text-brand-600 underline ${className}`}
    >
      {shown}
    </a>
  );
}
