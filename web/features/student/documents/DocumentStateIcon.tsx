/**
 * What a row shows: the slot's state from the server, or, while this page is sending a file,
 * "uploading" and then "checking" (the server scans the file and reads the PDF).
 */
export type RowState =
  | "to_upload"
  | "uploading"
  | "checking"
  | "with_school"
  | "accepted"
  | "returned";

export const ROW_STATE_WORDS: Record<RowState, string> = {
  to_upload: "To upload",
  uploading: "Uploading",
  checking: "Checking",
  with_school: "With the school",
  accepted: "Accepted",
  returned: "Returned",
};

export const ROW_STATE_CHIP: Record<RowState, string> = {
  to_upload: "chip chip--amber",
  uploading: "chip chip--navy",
  checking: "chip chip--navy",
  with_school: "chip chip--navy",
  accepted: "chip chip--green",
  returned: "chip chip--red",
};

const STROKE = {
  fill: "none",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

/** Decorative: the chip beside it says the same in words. */
export function DocumentStateIcon({ state }: { state: RowState }) {
  return (
    <svg
      className={`document__icon document__icon--${state}`}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="11" className="document__icon-disc" />
      {state === "accepted" ? (
        <path d="M7 12.5l3.2 3.2L17 9" {...STROKE} strokeWidth={2.5} />
      ) : null}
      {state === "to_upload" || state === "uploading" ? (
        <path d="M12 16V7M8 11l4-4 4 4M7 17.5h10" {...STROKE} />
      ) : null}
      {state === "checking" ? (
        <path d="M8 6h8M8 18h8M9 6c0 3 6 3 6 6s-6 3-6 6M15 6c0 3-6 3-6 6s6 3 6 6" {...STROKE} />
      ) : null}
      {state === "with_school" ? (
        <path d="M12 7v5l3.5 2M12 19a7 7 0 1 0 0-14 7 7 0 0 0 0 14z" {...STROKE} />
      ) : null}
      {state === "returned" ? (
        <path d="M10 7l-4 4 4 4M6.5 11H14a3.5 3.5 0 0 1 0 7h-2" {...STROKE} />
      ) : null}
    </svg>
  );
}
