import type {
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

/**
 * A labelled form control in the GOV.UK order: label, hint, error, then the control. The error and
 * hint are tied to the control with aria-describedby, and aria-invalid marks it, so a screen reader
 * hears what is wrong when the field takes focus.
 */
interface FieldFrameProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
}

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: FieldFrameProps & { children: ReactNode }) {
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <div id={`${id}-hint`} className="field__hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      {children}
    </div>
  );
}

type InputProps = FieldFrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & { ref?: Ref<HTMLInputElement> };

export function TextField({ id, label, hint, error, ...input }: InputProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
    </FieldFrame>
  );
}

type TextAreaProps = FieldFrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> & { ref?: Ref<HTMLTextAreaElement> };

export function TextAreaField({ id, label, hint, error, ...textarea }: TextAreaProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...textarea}
      />
    </FieldFrame>
  );
}

type SelectProps = FieldFrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> & {
    options: readonly { value: string; label: string }[];
    ref?: Ref<HTMLSelectElement>;
  };

export function SelectField({ id, label, hint, error, options, ...select }: SelectProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
