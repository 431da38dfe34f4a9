"use client";

import { useId, useState } from "react";
import { FORWARD_EVENTS, type ForwardEvent } from "@/lib/outbound/contracts";
import { errorText } from "@/lib/browser/parsed";
import { OneTimeSecret } from "@/components/subscriptions/one-time-secret";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { useCreateDestination } from "./use-create-destination";

const input = "w-full rounded border border-slate-300 bg-white px-2 py-1";

/**
 * Registers a destination. The secret Tally makes (or the one pasted here) comes back once and is
 * shown once; the field is emptied on submit, whatever the outcome.
 */
export function DestinationForm() {
  const id = useId();
  const create = useCreateDestination();
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

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const own = secret.trim();
    setSecret("");
    create.mutate(
      { url: url.trim(), events: FORWARD_EVENTS.filter((ev) => events.has(ev)), ...(own ? { secret: own } : {}) },
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
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1">Events</legend>
          {FORWARD_EVENTS.map((ev) => (
            <label key={ev} className="flex items-center gap-2">
              <input type="checkbox" checked={events.has(ev)} onChange={() => toggle(ev)} />
              <code>{ev}</code>
            </label>
          ))}
        </fieldset>
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
        <div className="md:col-span-2">
          <Button
            type="submit"
            pending={create.isPending}
            pendingLabel="Adding…"
            disabled={events.size === 0 || url.trim() === ""}
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
