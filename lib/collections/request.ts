import "server-only";
import { BadRequest, badRequestOf } from "../errors";
import { parseJsonBody, refuseBadText } from "../http";
import type { Checks } from "../content-checks";
import { checksOrRefuse, parseText, parseValues, queryFlag, readListBody, type ParsedList } from "../runs";
import {
  collectionTextQuerySchema,
  createCollectionBodySchema,
  updateCollectionBodySchema,
  type UpdateCollectionBody,
} from "./contracts";

// The body of POST /api/collections and POST /api/collections/{id}: JSON {"name","urls",…settings}, or
// a text/plain (one URL a line) or text/csv body (the list) with the name and settings in the query.

export type CollectionInput = Omit<UpdateCollectionBody, "urls" | "checks"> & {
  list?: ParsedList;
  /** Validated (checksOrRefuse: a 400 naming the field); null clears it back to the default set. */
  checks?: Checks | null;
};

export async function readCollectionRequest(req: Request, mode: "create" | "update"): Promise<CollectionInput> {
  const { type, text } = await readListBody(req);
  if (type.startsWith("application/json")) {
    const json = parseJsonBody(text);
    const parsed = (mode === "create" ? createCollectionBodySchema : updateCollectionBodySchema).safeParse(json);
    if (!parsed.success) throw badRequestOf("Invalid body", parsed.error.issues);
    const { urls, checks, ...rest } = parsed.data;
    return {
      ...rest,
      ...(checks === undefined ? {} : { checks: checks === null ? null : checksOrRefuse(checks) }),
      list: urls === undefined ? undefined : parseValues(urls),
    };
  }
  const csv = type.startsWith("text/csv");
  if (!csv && !type.startsWith("text/plain"))
    throw new BadRequest(
      "Send the collection as application/json, or its list as text/plain (one URL a line) or text/csv with the settings in the query",
    );
  if (text.includes("\u0000")) throw new BadRequest("The list contains a NUL character");
  const query = Object.fromEntries(new URL(req.url).searchParams);
  refuseBadText(query, "query");
  const q = collectionTextQuerySchema.safeParse(query);
  if (!q.success) throw badRequestOf("Invalid query", q.error.issues);
  if (mode === "create" && !q.data.name) throw new BadRequest("name is required (?name=… with a text body)");
  return {
    name: q.data.name,
    schedule: q.data.schedule === undefined ? undefined : q.data.schedule || null,
    timezone: q.data.timezone,
    overlap: q.data.overlap,
    renderJs: queryFlag(q.data.renderJs),
    formats: q.data.formats?.split(",").filter((f): f is "markdown" | "html" => f === "markdown" || f === "html"),
    list: parseText(text, csv ? "csv" : "lines"),
  };
}
