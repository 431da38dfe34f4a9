import { z } from "zod";

// The format of a Standard Webhooks secret, checked wherever one is given (configuration, a
// destination's secret). No server code here: the Outbound page checks it too.

/** Standard Webhooks secrets: `whsec_` + base64 of 24–64 random bytes (what its libraries expect). */
export const whsecSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, {
    error: "must be whsec_ followed by base64 (leave it out and Tally makes one)",
  })
  .refine(
    (s) => {
      const n = Math.floor(((s.length - 6) * 3) / 4) - (s.match(/=+$/)?.[0].length ?? 0);
      return n >= 24 && n <= 64;
    },
    { error: "must encode 24 to 64 random bytes after whsec_" },
  );
