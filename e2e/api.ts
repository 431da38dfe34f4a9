// Tally's JSON API from the specs, through the typed client (lib/api-client), as the signed-in page: the
// requests go out on the page's request context, so they carry its session cookie, with the Origin a
// browser sends (Tally refuses a session's mutation without it).
import type { APIRequestContext, Page } from "@playwright/test";
import { createTallyClient, type TallyClient } from "../lib/api-client";

/** The typed client as `page`'s session (a blank page first opens a Tally page, for its origin). */
export async function tallyApi(page: Page): Promise<TallyClient> {
  if (page.url() === "about:blank") await page.goto("/jobs?limit=1");
  return tallyClient(page.request, new URL(page.url()).origin);
}

/** The typed client as a request context's session (a browser context's `request`), at Tally's `origin`. */
export function tallyClient(context: APIRequestContext, origin: string): TallyClient {
  return createTallyClient({ baseUrl: origin, headers: { origin }, fetch: through(context) });
}

/** A fetch that sends the client's request on a Playwright request context (its cookies) and answers its response. */
export function through(context: APIRequestContext): (request: Request) => Promise<Response> {
  return async (request) => {
    const res = await context.fetch(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      data: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
      failOnStatusCode: false,
      maxRedirects: 0,
    });
    const body = res.status() === 204 || res.status() === 304 ? null : new Uint8Array(await res.body());
    return new Response(body, { status: res.status(), statusText: res.statusText(), headers: res.headers() });
  };
}
