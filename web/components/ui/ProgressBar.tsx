import "./progress-bar.css";

/**
 * A determinate progress bar with its figures in words beside it ("48% · 12.4 of 48 MB"). Built
 * on role="progressbar" rather than <progress> so aria-valuenow and aria-valuetext are explicit:
 * a screen reader hears the same figures a sighted person reads.
 */
export function ProgressBar({
  label,
  percent,
  detail,
}: {
  /** What is progressing, e.g. "Uploading thesis-final.pdf". */
  label: string;
  /** 0 to 100; rounded for display. */
  percent: number;
  /** The amount in words, e.g. "12.4 of 48 MB". */
  detail?: string;
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  const text = detail ? `${value}% · ${detail}` : `${value}%`;
  return (
    <div className="progress-bar">
      <div
        className="progress-bar__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={detail ? `${value}%, ${detail}` : `${value}%`}
      >
        <div className="progress-bar__fill" style={{ width: `${value}%` }} />
      </div>
      <p className="progress-bar__figures" aria-hidden="true">
        {text}
      </p>
    </div>
  );
}
