"use client";

import { useEffect, type RefObject } from "react";

// A field's problem from the server, shown next to it and tied to it for screen readers: the input
// gets aria-invalid and aria-describedby naming the message (spread `problemProps(id, problem)`).

export function problemProps(id: string, problem: string | undefined) {
  return problem ? { "aria-invalid": true as const, "aria-describedby": `${id}-problem` } : {};
}

export function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <span id={`${id}-problem`} className="mt-1 block text-red-700">
      {problem}
    </span>
  );
}

/** After a refused save, the focus goes to the first field marked invalid (when there is one). */
export function useFocusFirstProblem(form: RefObject<HTMLFormElement | null>, error: unknown) {
  useEffect(() => {
    if (error === null) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, error]);
}
