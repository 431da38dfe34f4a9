import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { routeDocOf } from "../http";
import { routesOf, type ApiRoute } from "./document";

// Finds the route files under app/api and reads the descriptions their handlers carry. lib/ does not
// import app/ (the layering rules): the caller passes `load`, which imports one route module.

export const API_ROOT = "app/api";

/** Every `route.ts` under app/api, as repository-relative paths with forward slashes, sorted. */
export function findRouteFiles(cwd = process.cwd()): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(cwd, dir))
      .sort()
      .flatMap((name) => {
        const rel = `${dir}/${name}`;
        if (statSync(path.join(cwd, rel)).isDirectory()) return walk(rel);
        return name === "route.ts" ? [rel] : [];
      });
  return walk(API_ROOT);
}

/** The routes of every file, loaded one by one with `load` (an import of the module). */
export async function collectApiRoutes(
  load: (file: string) => Promise<Record<string, unknown>>,
  files = findRouteFiles(),
): Promise<ApiRoute[]> {
  const routes: ApiRoute[] = [];
  for (const file of files) routes.push(...routesOf(file, await load(file), routeDocOf));
  return routes;
}
