// Tally's JSON API as a typed client: openapi-fetch over the types openapi-typescript makes of
// docs/openapi.json (schema.d.ts, written by `npm run api:client`), so a call names a documented path
// and its parameters, body and answer are checked by the compiler. Used by the command-line tools that
// talk to a running Tally and by the end-to-end tests; plain fetch, no server code, so it loads anywhere.
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import { z } from "zod";
import { ApiError } from "../browser";
import type { paths } from "./schema";

export type { components, operations, paths } from "./schema";
export type TallyClient = Client<paths>;

export type TallyClientOptions = {
  /** Where Tally answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A personal API token (Settings → API tokens) or `TALLY_API_TOKEN`, sent as `Authorization: Bearer`.
   * Leave it out when `fetch` carries a session instead. */
  token?: string;
  /** Sent with every request (a browser session's mutations need Tally's own `origin`). */
  headers?: Record<string, string>;
  /** Another fetch, e.g. one that goes out with a browser context's cookies. */
  fetch?: ClientOptions["fetch"];
};

export function createTallyClient(options: TallyClientOptions): TallyClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch,
    headers: { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
}

/**
 * An error answer: its status and, from the body every route shares (`{error, message}`), the code and
 * reason. The browser's fetch (lib/browser) throws the same kind of error; this one names the client.
 */
export class TallyApiError extends ApiError {
  override name = "TallyApiError";
}

const errorBody = z.object({ error: z.string(), message: z.string() });

/** The answer's body, or a TallyApiError carrying the server's reason: `await unwrap(tally.GET("/api/runs"))`. */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D & {}> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined && data !== null) return data;
  const parsed = errorBody.safeParse(error);
  const from = response.url ? ` from ${response.url}` : "";
  if (parsed.success)
    throw new TallyApiError(
      response.status,
      parsed.data.error,
      `${response.status}${from}: ${parsed.data.message}`,
      error,
    );
  throw new TallyApiError(response.status, "unexpected", `${response.status}${from}: not the documented answer`, error);
}
