import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

/** This process, as written into the rows it wins or opens (host, pid and a random part: restarts differ). */
export const PROCESS_TAG = `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
