import { revealedParts } from "@/components/jobs/safe-text";

// Scraped text with its invisible and bidirectional characters as marked escapes (⟨U+202E⟩ on amber), so
// a marker stands apart from the same characters typed into the page.
export function RevealedText({ text }: { text: string }) {
  return (
    <>
      {revealedParts(text).map((p, i) =>
        p.marker ? (
          <span
            key={i}
            className="rounded-sm bg-amber-200 px-0.5 text-amber-950"
            title="An invisible or bidirectional character, shown escaped"
            data-invisible=""
          >
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
