"use client";

import { forwardRef } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";

// A disabled button is grey whatever its colour, so it does not read as one that can be pressed.
const styles: Record<Variant, string> = {
  primary: "bg-brand-600 text-white enabled:hover:bg-brand-700 disabled:bg-slate-200 disabled:text-slate-600",
  secondary:
    "border border-slate-300 bg-white text-slate-800 enabled:hover:bg-slate-100 disabled:bg-slate-100 disabled:text-slate-500",
  danger: "bg-red-600 text-white enabled:hover:bg-red-700 disabled:bg-slate-200 disabled:text-slate-600",
  ghost: "text-slate-700 enabled:hover:bg-slate-200 disabled:text-slate-500",
};

export type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  /** Shows the label as busy and disables the button while an action runs. */
  pending?: boolean;
  pendingLabel?: string;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = "primary", pending = false, pendingLabel, disabled, className = "", children, type = "button", ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed ${styles[variant]} ${className}`}
      {...rest}
    >
      {pending && (
        <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent" />
      )}
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
});
