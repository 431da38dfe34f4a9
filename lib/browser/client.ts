// lib/browser's surface for client components (no server code): what other folders and the browser may import.
export { ApiError, apiFetch } from "./api";
export { deleteParsed, errorText, fieldProblems, getParsed, postParsed } from "./parsed";
