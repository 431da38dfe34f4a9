"use client";

import { useId, useState } from "react";
import {
  DESTINATION_TYPE_LABELS,
  DESTINATION_TYPES,
  type DestinationType,
  FORWARD_EVENTS,
  type ForwardEvent,
  isSinkType,
  sinkConfigFromForm,
  type SinkFormValues,
} from "@/lib/outbound/client";
import { errorText } from "@/lib/browser/client";
import { OneTimeSecret } from "@/components/subscriptions/one-time-secret";
import { Button } from "@/components/ui/button";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { SinkConfigFields } from "./sink-config-fields";
import { useCreateDestination } from "./use-create-destination";

const input = "w-full rounded border border-slate-300 bg-white px-2 py-1";

/**
 * Registers a destination: a webhook, or a sink of another type with its config (checked by Tally
 * connecting to it; a refusal shows the sink's own reason). A webhook's secret, made by Tally or pasted
 * here, comes back once and is shown once; that field is emptied on submit, whatever the outcome. A
 * sink's credentials are kept until it is saved, so a refused config can be corrected and sent again.
 */
export function DestinationForm() {
  const id = useId();
  const create = useCreateDestination();
  const [type, setType] = useState<DestinationType>("webhook");
  const [sinkValues, setSinkValues] = useState<SinkFormValues>({});
  const [added, setAdded] = useState<{ id: string; target: string } | null>(null);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Set<ForwardEvent>>(
    // url.changed is one event per changed URL of a collection run: asked for, not on by default.
    new Set(FORWARD_EVENTS.filter((ev) => ev !== "url.changed")),
  );
  const [secret, setSecret] = useState("");
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);

  const toggle = (e: ForwardEvent) =>
    setEvents((s) => {
      const next = new Set(s);
      if (next.has(e)) next.delete(e);
      else next.add(e);
      return next;
    });

  const chooseType = (t: DestinationType) => {
    setType(t);
    setSinkValues({});
    setAdded(null);
    create.reset();
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const chosen = FORWARD_EVENTS.filter((ev) => events.has(ev));
    setAdded(null);
    if (isSinkType(type)) {
      create.mutate(
        { type, config: sinkConfigFromForm(type, sinkValues), events: chosen },
        {
          onSuccess: (d) => {
            setAdded({ id: d.id, target: d.url });
            setSinkValues({});
          },
        },
      );
      return;
    }
    const own = secret.trim();
    setSecret("");
    create.mutate(
      { url: url.trim(), events: chosen, ...(own ? { secret: own } : {}) },
      {
        onSuccess: (d) => {
          setCreated({ id: d.id, secret: d.secret ?? "" });
          setUrl("");
        },
      },
    );
  }

  return (
    <div className="text-sm">
      <form onSubmit={submit} className="grid gap-3 md:grid-cols-2" autoComplete="off" aria-label="Add a destination">
        <div className="flex flex-col gap-1 md:col-span-2">
          {/* A label apart from the select: wrapped, the options' words would join its name. */}
          <label htmlFor={`${id}-type`}>Type</label>
          <select
            id={`${id}-type`}
            value={type}
            onChange={(e) => chooseType(e.target.value as DestinationType)}
            className={`${input} md:max-w-sm`}
          >
            {DESTINATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {DESTINATION_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        {isSinkType(type) ? (
          <SinkConfigFields
            id={id}
            type={type}
            values={sinkValues}
            onChange={(k, v) => setSinkValues((cur) => ({ ...cur, [k]: v }))}
          />
        ) : (
          <label className="flex flex-col gap-1 md:col-span-2" htmlFor={`${id}-url`}>
            <span>Endpoint URL</span>
            <input
              id={`${id}-url`}
              type="url"
              required
              maxLength={2048}
              placeholder="https://example.com/webhooks/tally"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              className={input}
            />
          </label>
        )}
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1">Events</legend>
          {FORWARD_EVENTS.map((ev) => (
            <label key={ev} className="flex items-center gap-2">
              <input type="checkbox" checked={events.has(ev)} onChange={() => toggle(ev)} />
              <code>{ev}</code>
            </label>
          ))}
        </fieldset>
        {type === "webhook" && (
          <label className="flex flex-col gap-1" htmlFor={`${id}-secret`}>
            <span>Signing secret (optional)</span>
            <input
              id={`${id}-secret`}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              placeholder="whsec_… (leave empty: Tally makes one)"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              className={`${input} font-mono`}
              aria-describedby={`${id}-help`}
            />
            <span id={`${id}-help`} className="text-xs text-slate-600">
              Events are signed per Standard Webhooks with this secret.
            </span>
          </label>
        )}
        <div className="md:col-span-2">
          <Button
            type="submit"
            pending={create.isPending}
            pendingLabel="Adding…"
            disabled={events.size === 0 || (type === "webhook" && url.trim() === "")}
          >
            Add destination
          </Button>
        </div>
      </form>
      {create.error && (
        <div className="mt-2">
          <ErrorNotice title="The destination was not added" message={errorText(create.error)} />
        </div>
      )}
      {added && (
        <div className="mt-2">
          <Notice tone="good">
            Destination <code>{added.id}</code> was added: it writes to{" "}
            <code className="break-all">{added.target}</code>.
          </Notice>
        </div>
      )}
      {created && (
        <OneTimeSecret
          secret={created.secret}
          onDismiss={() => setCreated(null)}
          warning={`Destination ${created.id} was added. Give this secret to the receiver so it can verify Tally's signatures; it will not be shown again.`}
        />
      )}
    </div>
  );
}
