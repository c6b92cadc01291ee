import { ApiError } from "../../../lib/api-client.js";
import { examinerFetch } from "./examiner-request.js";

/**
 * GET /api/examiner/thesis: the current thesis PDF (the corrected one once the student has
 * uploaded it). A plain link cannot carry the Authorization header, so the page fetches the file,
 * reads it with progress, and hands it to the browser as a download through an `<a download>` on
 * a blob URL. The first download moves the examiner to "Received" on the server.
 */

export interface DownloadCallbacks {
  /** Bytes received so far, out of the size the server announced (or the expected size). */
  onProgress?: (received: number, size: number) => void;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** `attachment; filename="thesis.pdf"; filename*=UTF-8''th%C3%A8se.pdf` → the name, else null. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  const plain =
    /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(header)?.[1];
  return plain?.trim() || null;
}

export async function downloadThesis(
  token: string,
  { expectedName, expectedSize }: { expectedName: string; expectedSize: number },
  { onProgress }: DownloadCallbacks = {},
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  const response = await examinerFetch(token, "/thesis", { accept: "application/pdf", signal });
  const fileName =
    fileNameFromDisposition(response.headers.get("content-disposition")) ?? expectedName;
  const announced = Number(response.headers.get("content-length"));
  const size = Number.isFinite(announced) && announced > 0 ? announced : expectedSize;
  try {
    if (!response.body) {
      const blob = await response.blob();
      onProgress?.(blob.size, blob.size);
      return { blob, fileName };
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let received = 0;
    onProgress?.(0, size);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress?.(received, Math.max(size, received));
    }
    return { blob: new Blob(chunks, { type: "application/pdf" }), fileName };
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(
      0,
      "network",
      `The connection dropped while downloading ${fileName}. Check your connection and try again.`,
    );
  }
}

/** Gives the file to the browser's downloads, as a link with `download` would. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken its copy once the click is handled; a minute leaves room for slow disks.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
