import { useId, type ReactNode } from "react";
import { ModalDialog } from "./ModalDialog.js";

/**
 * A modal question ("Are you sure?") with a title, the details, and two buttons, in a ModalDialog
 * (focus kept inside, Escape cancels, focus returns). Render it only while the question is open.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  onConfirm,
  onCancel,
  busy = false,
  tone = "primary",
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  tone?: "primary" | "danger";
}) {
  const bodyId = useId();
  return (
    <ModalDialog
      title={title}
      onClose={onCancel}
      busy={busy}
      role="alertdialog"
      describedBy={bodyId}
    >
      <div id={bodyId} className="confirm-dialog__body">
        {children}
      </div>
      <div className="actions confirm-dialog__actions">
        <button
          type="button"
          className={tone === "danger" ? "button button--danger" : "button"}
          onClick={onConfirm}
          disabled={busy}
        >
          {confirmLabel}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={onCancel}
          disabled={busy}
        >
          {cancelLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
