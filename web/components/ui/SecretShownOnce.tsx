import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import "./secret-shown-once.css";

/**
 * A secret the server shows once (an API token, a webhook's signing secret): a labelled region
 * whose heading takes the focus when it appears, so a screen reader reads it out; the value in a
 * labelled read-only box that selects itself on focus; a copy button whose result is announced
 * (role="status"); and, when `onDone` is given, a button to put it away.
 */
export function SecretShownOnce({
  title,
  label,
  value,
  copyLabel,
  doneLabel = "I have copied it",
  onDone,
  children,
}: {
  title: ReactNode;
  /** The box's label: "The new token", "Signing secret". */
  label: string;
  value: string;
  /** The copy button's text: "Copy token". */
  copyLabel: string;
  doneLabel?: string;
  onDone?: () => void;
  /** Why it must be copied now. */
  children: ReactNode;
}) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<string | null>(null);

  // A new secret (another token created while this one shows) is announced again.
  useEffect(() => {
    headingRef.current?.focus();
    setCopied(null);
  }, [value]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("Your browser did not let us copy. Select it in the box and copy it yourself.");
    }
  };

  return (
    <section className="secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1} ref={headingRef}>
        {title}
      </h2>
      {children}
      <label htmlFor={`${id}-value`} className="secret-once__label">
        {label}
      </label>
      <div className="secret-once__value">
        <input
          id={`${id}-value`}
          className="input"
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {copyLabel}
        </button>
      </div>
      <p role="status" className="secret-once__copied">
        {copied ?? ""}
      </p>
      {onDone ? (
        <button type="button" className="button button--secondary button--small" onClick={onDone}>
          {doneLabel}
        </button>
      ) : null}
    </section>
  );
}
