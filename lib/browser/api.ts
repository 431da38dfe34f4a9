// Browser-side fetch for Tally's JSON API: passes the abort signal and turns error answers into an
// ApiError whose message is the server's reason, ready to show to the operator.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(path, {
      ...rest,
      headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(
      0,
      "network",
      "Tally could not be reached. Check your connection and that the server runs.",
      null,
    );
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; message?: string; reason?: string };
    if (res.status === 401) {
      throw new ApiError(401, "unauthorized", "Your session has ended. Reload the page to sign in again.", body);
    }
    throw new ApiError(res.status, b.error ?? "error", b.message ?? b.reason ?? `Request failed (${res.status})`, body);
  }
  return body as T;
}
