// Query keys of a collection's pages.
export const collectionKeys = {
  all: ["collections"] as const,
  urlHistory: (id: string, url: string, cursor: string | undefined) =>
    [...collectionKeys.all, "url-history", id, url, cursor ?? null] as const,
};
