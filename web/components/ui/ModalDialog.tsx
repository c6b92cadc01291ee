import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import "./confirm-dialog.css";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal window: a title and what the caller puts in it (a small form, or ConfirmDialog's
 * question and buttons). Focus moves in (to the element marked `data-autofocus`, else the window),
 * Tab stays inside, Escape closes unless a request is under way, and focus goes back to where it
 * was. Render it only while it is open.
 */
export function ModalDialog({
  title,
  children,
  onClose,
  busy = false,
  role = "dialog",
  describedBy,
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
  busy?: boolean;
  /** "alertdialog" for a question that interrupts (ConfirmDialog). */
  role?: "dialog" | "alertdialog";
  /** The id of the element that says what the dialog is about, when there is one. */
  describedBy?: string;
}) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    (dialog?.querySelector<HTMLElement>("[data-autofocus]") ?? dialog)?.focus();
    return () => {
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      // React events bubble through the portal: the details panel behind must not close too.
      event.preventDefault();
      event.stopPropagation();
      if (!busy) onClose();
      return;
    }
    if (event.key !== "Tab" || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === dialogRef.current)
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="confirm-dialog__backdrop">
      <div
        ref={dialogRef}
        className="confirm-dialog"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        aria-busy={busy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
