/**
 * A backup or restore that cannot go on, with a message for the person at the terminal: what was
 * wrong and what to do. The commands print it alone, without a stack trace.
 */
export class BackupError extends Error {
  override name = "BackupError";
}
