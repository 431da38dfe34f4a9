// Browser-side calls whose answers are parsed, not trusted: each feature's fetch functions pass a zod
// schema, and an answer of an unexpected shape becomes an ApiError in words like any other failure.
import { z } from "zod";
import { apiFetch, ApiError } from "./api";

function parse<S extends z.ZodType>(schema: S, body: unknown, path: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError(
    0,
    "bad_response",
    `Tally answered ${path} in a shape this page does not understand; reload the page.`,
    body,
  );
}

export async function getParsed<S extends z.ZodType>(
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  return parse(schema, await apiFetch<unknown>(path, { signal }), path);
}

export async function postParsed<S extends z.ZodType>(
  path: string,
  schema: S,
  json: unknown = {},
): Promise<z.output<S>> {
  return parse(schema, await apiFetch<unknown>(path, { method: "POST", json }), path);
}

export async function deleteParsed<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
  return parse(schema, await apiFetch<unknown>(path, { method: "DELETE" }), path);
}

/** The operator-facing words for any failure a hook reports. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return "Something went wrong";
}

const detailsSchema = z.object({
  details: z.array(z.object({ path: z.string(), message: z.string() })),
});

/** A 400's problems by field path (`checks.mustContain.0.selector`, `maxTokens`, …), to show next to each field. */
export function fieldProblems(err: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!(err instanceof ApiError) || err.status !== 400) return out;
  const parsed = detailsSchema.safeParse(err.body);
  if (parsed.success) for (const d of parsed.data.details) if (!out.has(d.path)) out.set(d.path, d.message);
  return out;
}
