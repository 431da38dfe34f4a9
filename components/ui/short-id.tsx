"use client";

import Link from "next/link";
import { useState } from "react";

// An identifier as operators read it: its first 8 characters (a UUID's first group), the full id
// on hover and for screen readers, and a button that copies the full id.

export function shortId(id: string): string {
  return id.length > 10 ? id.slice(0, 8) : id;
}

export function CopyButton({ value, label = "Copy id" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // clipboard refused (insecure origin or permission): the full id stays selectable in the title
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      title={copied ? "Copied" : `${label}: ${value}`}
      aria-label={copied ? "Copied" : `${label} ${value}`}
      className="ml-1 inline-flex h-5 w-5 items-center justify-center rounded text-slate-500 hover:bg-slate-200 hover:text-slate-800"
    >
      {copied ? (
        <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 8.5l3 3 7-7" />
        </svg>
      ) : (
        <svg
          aria-hidden
          viewBox="0 0 16 16"
          className="h-3.5 w-3.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" />
        </svg>
      )}
    </button>
  );
}

/** A short id, linked when `href` is given, with the full id on hover and a copy button. */
export function ShortId({ id, href, copy = true }: { id: string; href?: string; copy?: boolean }) {
  const text = <span className="font-mono text-xs">{shortId(id)}</span>;
  return (
    <span className="inline-flex items-center whitespace-nowrap" title={id}>
      {href ? (
        <Link href={href} className="text-brand-600 hover:underline" aria-label={id}>
          {text}
        </Link>
      ) : (
        <span aria-label={id}>{text}</span>
      )}
      {copy && <CopyButton value={id} />}
    </span>
  );
}
