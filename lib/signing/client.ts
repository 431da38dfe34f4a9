// lib/signing's surface for client components (no server code): what other folders and the browser may import.
export { whsecSchema } from "./whsec";
