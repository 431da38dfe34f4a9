import "server-only";
// lib/net's surface: what other folders import from it (its files import each other directly).
export {
  addressRefusal,
  checkDestinationUrl,
  type GuardContext,
  guardedLookup,
  guardedPost,
  guardFor,
  parseAllowance,
  type PostAnswer,
  RefusedAddress,
} from "./address-guard";
