import "server-only";
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, opendir, readFile, rename, stat, unlink, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { type Backend, type BodyStore, type BodyStoreOptions, createBodyStore } from "./store";

// The embedded default: bodies as files under one folder. A body is written to a temporary file beside
// its place, fsynced, renamed into place and its folder fsynced, so once put() resolves it survives a
// crash or power loss, and a crash before the rename leaves only a temporary file, which no read sees
// (its name is not an object's) and the next put of the same body does not mind.

/** Temporary files start with this; they are never an object's name. */
export const TEMP_PREFIX = ".tmp-";

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, constants.O_RDONLY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export function fileBackend(root: string): Backend {
  const base = path.resolve(root);
  const at = (name: string) => path.join(base, ...name.split("/"));

  /** Makes `dir` (under base), fsyncing the parent of every folder made so the new entries last too. */
  async function ensureDir(dir: string): Promise<void> {
    const first = await mkdir(dir, { recursive: true });
    if (first === undefined) return;
    for (let d = dir; ; d = path.dirname(d)) {
      await fsyncDir(path.dirname(d));
      if (d === first || d === path.dirname(d)) break;
    }
  }

  return {
    location: `file:${base}`,
    where: (name) => at(name),

    async size(name) {
      try {
        return (await stat(at(name))).size;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async touch(name) {
      const now = new Date();
      try {
        await utimes(at(name), now, now);
        return (await stat(at(name))).size;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async removeIfOlder(name, before) {
      // Moved aside first (atomic), then its time read where no put can touch it any more: a put that
      // touched it before the move shows in that time, and it is put back; one after the move finds
      // nothing and writes the body again.
      const target = at(name);
      const aside = path.join(
        path.dirname(target),
        `${TEMP_PREFIX}sweep-${path.basename(target)}-${randomBytes(6).toString("hex")}`,
      );
      try {
        if ((await stat(target)).mtime >= before) return false;
        await rename(target, aside);
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
      if ((await stat(aside)).mtime >= before) {
        await rename(aside, target);
        return false;
      }
      await unlink(aside);
      await fsyncDir(path.dirname(target));
      return true;
    },

    async write(name, data) {
      const target = at(name);
      const dir = path.dirname(target);
      await ensureDir(dir);
      const temp = path.join(dir, `${TEMP_PREFIX}${path.basename(target)}-${randomBytes(6).toString("hex")}`);
      try {
        const fh = await open(temp, "wx", 0o644);
        try {
          await fh.writeFile(data);
          await fh.sync();
        } finally {
          await fh.close();
        }
        await rename(temp, target);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      await fsyncDir(dir);
    },

    async read(name) {
      try {
        const fh = await open(at(name), "r");
        return fh.createReadStream() as Readable;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async readAll(name) {
      // One read of the whole file: a stream's 64 KiB chunks cost 2.5x the time (bench figures).
      try {
        return await readFile(at(name));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async remove(name) {
      await unlink(at(name)).catch((err: unknown) => {
        if (!isMissing(err)) throw err;
      });
    },

    async *names() {
      for (const top of await entries(base)) {
        for (const mid of await entries(path.join(base, top))) {
          for (const file of await entries(path.join(base, top, mid))) {
            if (file.startsWith(TEMP_PREFIX)) continue;
            const s = await stat(path.join(base, top, mid, file)).catch(() => null);
            if (s?.isFile()) yield { name: `${top}/${mid}/${file}`, size: s.size, modifiedAt: s.mtime };
          }
        }
      }
    },

    async removeStaleTemporaries(before) {
      // A crash mid-write leaves `.tmp-<name>-<random>` beside its place (never renamed, so no row names
      // it: the row commits only after the rename); a crashed check leaves `.tmp-check-…` at the top.
      // Past the grace no write is still going on them. A sweep that crashed between moving an object
      // aside and putting it back leaves `.tmp-sweep-<name>-<random>`: put back when nothing took its
      // place (a row may name it; the next sweep judges it as an object), removed otherwise.
      let removed = 0;
      const folders = [base];
      for (const top of await entries(base))
        if (!top.startsWith(TEMP_PREFIX))
          for (const mid of await entries(path.join(base, top))) folders.push(path.join(base, top, mid));
      for (const dir of folders) {
        let changed = false;
        for (const file of await entries(dir)) {
          if (!file.startsWith(TEMP_PREFIX)) continue;
          const at = path.join(dir, file);
          const s = await stat(at).catch(() => null);
          if (!s?.isFile() || s.mtime >= before) continue;
          const aside = /^\.tmp-sweep-(.+)-[0-9a-f]{12}$/.exec(file);
          if (aside && (await stat(path.join(dir, aside[1])).catch(() => null)) === null) {
            await rename(at, path.join(dir, aside[1])).catch(() => undefined);
          } else {
            await unlink(at).catch((err: unknown) => {
              if (!isMissing(err)) throw err;
            });
            removed++;
          }
          changed = true;
        }
        if (changed) await fsyncDir(dir);
      }
      return removed;
    },

    async check() {
      // Writable, not merely present: a probe file written, fsynced and removed.
      await ensureDir(base).catch((err: unknown) => {
        throw new Error(`body store ${base}: cannot create the folder (${String(err)})`, { cause: err });
      });
      const probe = path.join(base, `${TEMP_PREFIX}check-${randomBytes(6).toString("hex")}`);
      try {
        const fh = await open(probe, "wx", 0o644);
        await fh.sync().finally(() => fh.close());
      } catch (err) {
        throw new Error(`body store ${base}: cannot write there (${String(err)})`, { cause: err });
      } finally {
        await unlink(probe).catch(() => undefined);
      }
    },

    async close() {},
  };
}

/** Names in `dir`, sorted; none when it does not exist (yet, or any more). */
async function entries(dir: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const e of await opendir(dir)) names.push(e.name);
    return names.sort();
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw err;
  }
}

export type FileBodyStoreOptions = { root: string } & BodyStoreOptions;

/** Bodies as files under `root` (TALLY_BODY_STORE=file:./data/bodies). */
export function fileBodyStore(options: FileBodyStoreOptions): BodyStore {
  return createBodyStore(fileBackend(options.root), options);
}
