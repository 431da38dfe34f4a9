import { Notice } from "@/components/ui/feedback";

// Said once above a job's results when the body store did not answer for some of them (issue 50): a
// passing outage, not a loss; each result below says which body.

export function BodiesUnavailable({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Notice tone="warn">
      <span data-testid="bodies-unavailable">
        The body store did not answer: {count === 1 ? "1 result shown" : `${count} results shown`} cannot be read now.
        Nothing is lost or changed: the results and their bodies are kept, and read again once the store answers. Reload
        the page to try again.
      </span>
    </Notice>
  );
}
