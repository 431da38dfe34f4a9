// Stand-in for the "server-only" marker package outside Next (tests and scripts).
export {};
