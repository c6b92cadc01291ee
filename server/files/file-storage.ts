import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { access, copyFile, mkdir, open, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  FileMissingError,
  assertStorageKey,
  isStorageKey,
  type FileStorage,
  type StoredFile,
} from "./storage.js";

const FOLDER = /^[0-9a-f]{2}$/;

/**
 * Files on the local disk, content-addressed: key ab12cd… lives at <root>/ab/12/ab12cd…, so no
 * folder grows past a few thousand entries. A file reaches its final name only by rename(2),
 * which is atomic, so a reader never sees a partly written file under a key.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = "file";
  readonly #stagingDir: string;

  constructor(
    readonly root: string,
    stagingDir?: string,
  ) {
    // Inside the root by default: the same filesystem, so put() is a plain rename.
    this.#stagingDir = stagingDir ?? path.join(root, ".staging");
  }

  get stagingDir(): string {
    // Made on every ask (one cheap syscall) so a folder removed while the server runs comes back.
    fs.mkdirSync(this.#stagingDir, { recursive: true });
    return this.#stagingDir;
  }

  #pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(key: string, localPath: string): Promise<void> {
    const target = this.#pathOf(key);
    const source = await stat(localPath);
    if (!source.isFile()) throw new Error(`Only a regular file can be stored: ${localPath}`);
    const now = new Date();
    try {
      // Same key, same bytes: the stored copy stands; only its age starts again.
      await utimes(target, now, now);
      return;
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
    await mkdir(path.dirname(target), { recursive: true });
    // Set before the move so the file appears under its key already carrying the new time.
    await utimes(localPath, now, now);
    try {
      await rename(localPath, target);
    } catch (error) {
      if (errorCode(error) !== "EXDEV") throw error;
      await copyIntoPlace(localPath, target);
    }
  }

  async read(key: string): Promise<{ stream: Readable; size: number }> {
    const file = this.#pathOf(key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await open(file, "r");
    } catch (error) {
      if (errorCode(error) === "ENOENT") throw new FileMissingError(`No stored file ${key}`);
      throw error;
    }
    try {
      // The size of the file actually opened, even if the key is replaced meanwhile.
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const file = this.#pathOf(key);
    try {
      return (await stat(file)).isFile();
    } catch (error) {
      if (errorCode(error) === "ENOENT") return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<StoredFile> {
    // One folder's names in memory at a time; .staging and temporary copies never match.
    for (const first of await folderNames(this.root)) {
      const firstDir = path.join(this.root, first);
      for (const second of await folderNames(firstDir)) {
        const dir = path.join(firstDir, second);
        const names = (await entries(dir))
          .filter((e) => e.isFile() && isStorageKey(e.name) && e.name.startsWith(first + second))
          .map((e) => e.name)
          .sort();
        for (const key of names) {
          try {
            const { mtime } = await stat(path.join(dir, key));
            yield { key, modifiedAt: mtime };
          } catch (error) {
            // Deleted between the listing and the stat: it is no longer stored.
            if (errorCode(error) !== "ENOENT") throw error;
          }
        }
      }
    }
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, fs.constants.R_OK | fs.constants.W_OK);
    } catch (error) {
      throw new Error(`The storage folder ${this.root} is not usable: ${describe(error)}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {}
}

/**
 * The source is on another filesystem: copy it beside the target under a temporary name, then
 * rename, so the key still appears whole or not at all. A failed copy leaves no temporary file.
 */
async function copyIntoPlace(source: string, target: string): Promise<void> {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await copyFile(source, temporary, fs.constants.COPYFILE_EXCL);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function entries(dir: string): Promise<fs.Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === "ENOENT") return [];
    throw error;
  }
}

async function folderNames(dir: string): Promise<string[]> {
  return (await entries(dir))
    .filter((e) => e.isDirectory() && FOLDER.test(e.name))
    .map((e) => e.name)
    .sort();
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
