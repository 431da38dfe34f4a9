"use client";

import { SINK_TYPE_HINTS, sinkFormFields, type SinkFormValues, type SinkType } from "@/lib/outbound/client";

const input = "w-full rounded border border-slate-300 bg-white px-2 py-1";

/** A sink type's config fields (lib/outbound/sink-form.ts), credentials as password inputs. */
export function SinkConfigFields({
  id,
  type,
  values,
  onChange,
}: {
  id: string;
  type: SinkType;
  values: SinkFormValues;
  onChange: (key: string, value: string | boolean) => void;
}) {
  return (
    <>
      <p className="text-xs text-slate-600 md:col-span-2">{SINK_TYPE_HINTS[type]}</p>
      {sinkFormFields(type).map((f) => {
        const fieldId = `${id}-${type}-${f.key}`;
        if (f.input === "checkbox")
          return (
            <label key={f.key} htmlFor={fieldId} className="flex items-center gap-2 md:col-span-2">
              <input
                id={fieldId}
                type="checkbox"
                checked={values[f.key] === true}
                onChange={(e) => onChange(f.key, e.target.checked)}
              />
              <span>{f.label}</span>
            </label>
          );
        return (
          <label
            key={f.key}
            htmlFor={fieldId}
            className={`flex min-w-0 flex-col gap-1 ${f.wide ? "md:col-span-2" : ""}`}
          >
            <span>{f.label}</span>
            <input
              id={fieldId}
              type={f.input}
              required={f.required}
              spellCheck={false}
              autoComplete={f.input === "password" ? "new-password" : "off"}
              placeholder={f.placeholder}
              value={typeof values[f.key] === "string" ? (values[f.key] as string) : ""}
              onChange={(e) => onChange(f.key, e.target.value)}
              className={`${input} font-mono`}
            />
          </label>
        );
      })}
    </>
  );
}
