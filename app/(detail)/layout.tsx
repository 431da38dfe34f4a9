// The dashboard's layout for pages that must answer 404 as a real status: no loading.tsx stands above
// them (a Suspense boundary flushes the 200 before the page knows its record is missing), so they
// render whole before the first byte. Their own error.tsx and not-found.tsx still apply.
export { default } from "../(dashboard)/layout";
