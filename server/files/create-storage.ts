import { LocalFileStorage } from "./file-storage.js";
import { S3FileStorage } from "./s3-storage.js";
import type { FileStorage, StorageLocation } from "./storage.js";

/**
 * Builds the store STORAGE_URL names. Kept apart from storage.ts, which holds what both backends share
 * (the interface, the key rules, the URL parser), so the imports run one way:
 * create-storage.ts -> file-storage.ts and s3-storage.ts -> storage.ts.
 */
export function createStorage(
  location: StorageLocation,
  options: { stagingDir?: string } = {},
): FileStorage {
  switch (location.kind) {
    case "file":
      return new LocalFileStorage(location.root, options.stagingDir);
    case "s3":
      return new S3FileStorage(location, options.stagingDir);
  }
}
