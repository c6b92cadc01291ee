import { useEffect, useRef, useState, type InputHTMLAttributes, type Ref } from "react";

/**
 * A text input that reports its value a moment after typing stops (results as you type without
 * a request per key). Enter reports at once. When the value changes from outside (the back
 * button, "clear filters"), the input shows it.
 */
export function DebouncedInput({
  value,
  onCommit,
  delay = 250,
  ref,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "defaultValue"> & {
  value: string;
  onCommit: (value: string) => void;
  delay?: number;
  ref?: Ref<HTMLInputElement>;
}) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const onCommitRef = useRef(onCommit);
  useEffect(() => {
    onCommitRef.current = onCommit;
  });

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = text;
      onCommitRef.current(text);
    }, delay);
    return () => clearTimeout(timer);
  }, [text, delay]);

  return (
    <input
      ref={ref}
      {...input}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter" && text !== committed.current) {
          event.preventDefault();
          committed.current = text;
          onCommitRef.current(text);
        }
        input.onKeyDown?.(event);
      }}
    />
  );
}
