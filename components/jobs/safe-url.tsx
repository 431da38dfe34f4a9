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

export function SafeUrl({ url, className = "" }: { url: string | null; className?: string }) {
  if (!url) return <span className="text-slate-400">—</span>;
  const shown = revealControls(url);
  const text = <span className={`break-all ${className}`}>{shown}</span>;
  if (!isHttpUrl(url)) return text;
  return (
    <a href={url} target="_blank" rel="noreferrer noopener" className={`break-all text-brand-600 underline ${className}`}>
      {shown}
    </a>
  );
}
