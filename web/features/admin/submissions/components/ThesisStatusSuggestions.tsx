/**
 * Thesis Status is free text (the prototype's records hold whatever the school typed); these are
 * offered as suggestions only. "Initial Submission" is the value seen in the school's records.
 */
export const THESIS_STATUS_SUGGESTIONS = [
  "Initial Submission",
  "Under Examination",
  "Corrections Requested",
  "Final Submission",
] as const;

export function ThesisStatusSuggestions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {THESIS_STATUS_SUGGESTIONS.map((status) => (
        <option key={status} value={status} />
      ))}
    </datalist>
  );
}
