import { documentLabel, formatBytes } from "../../../../common/documents-constants.js";
import type { DocumentItem } from "../../../../common/workflow.js";

/**
 * What the browser can tell before sending a byte: the server decides (it reads the file's bytes),
 * but a 300 MB video or a Word file should not wait for a long upload to hear "no". Messages name
 * the file and say what to do, in the words the server uses for the same refusal.
 */
export function checkFileBeforeUpload(
  file: Pick<File, "name" | "size" | "type">,
  { item, maxBytes }: { item: DocumentItem; maxBytes: number },
): string | null {
  const looksLikePdf = /\.pdf$/i.test(file.name) || file.type === "application/pdf";
  if (!looksLikePdf) {
    return `${file.name} is not a PDF. Save or export it as a PDF and upload that file.`;
  }
  if (file.size === 0) {
    return `${file.name} is empty. Check that you chose the saved PDF, then upload it again.`;
  }
  if (file.size > maxBytes) {
    const limitFor = item === "thesis" ? "a thesis" : `the ${documentLabel(item)}`;
    return `${file.name} is larger than ${formatBytes(maxBytes)}, the limit for ${limitFor}. Make the file smaller (for example, export it again with compressed images) and upload it.`;
  }
  return null;
}

/** "12.4 of 48 MB" when both share a unit, else "840 KB of 12 MB". */
export function formatProgress(sent: number, size: number): string {
  const done = formatBytes(sent);
  const whole = formatBytes(size);
  const unit = (text: string) => text.slice(text.lastIndexOf(" ") + 1);
  if (unit(done) === unit(whole)) {
    return `${done.slice(0, done.lastIndexOf(" "))} of ${whole}`;
  }
  return `${done} of ${whole}`;
}

export function percentOf(sent: number, size: number): number {
  return size > 0 ? Math.round((sent / size) * 100) : 0;
}
