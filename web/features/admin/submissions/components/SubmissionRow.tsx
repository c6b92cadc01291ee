import { memo, type MouseEvent } from "react";
import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { StatusChips } from "./StatusChips.js";

export interface SubmissionRowProps {
  submission: SubmissionDto;
  /** The one row of the table in the tab order (roving tabindex). */
  tabbable: boolean;
  /** Open in the details panel. */
  open: boolean;
  /** Ticked for the bulk actions. */
  checked: boolean;
  /** Must keep its identity across renders, or every row renders again. */
  onToggle: (id: number) => void;
}

// The tick box's cell is for ticking only: a click there must not reach the row and open it.
const stopPropagation = (event: MouseEvent) => event.stopPropagation();

/**
 * One row of the administrator's list. Memoised, and given only data and one stable callback:
 * moving the focus, ticking a row or opening one re-renders the one or two rows it concerns, not
 * the hundred on the page. Clicks, keys and focus are handled once, on the table's body
 * (AllSubmissionsPage), which finds the row by its data-id.
 */
export const SubmissionRow = memo(function SubmissionRow({
  submission,
  tabbable,
  open,
  checked,
  onToggle,
}: SubmissionRowProps) {
  return (
    <tr
      data-id={submission.id}
      tabIndex={tabbable ? 0 : -1}
      aria-selected={open}
      data-checked={checked || undefined}
    >
      <td className="submissions-table__select" onClick={stopPropagation}>
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={`Select ${submission.studentName}`}
          checked={checked}
          onChange={() => onToggle(submission.id)}
        />
      </td>
      {/* On a desk screen a long name or programme ends in an ellipsis: the title shows it whole. */}
      <td className="submissions-table__name" title={submission.studentName}>
        {submission.studentName.toUpperCase()}
      </td>
      <td className="submissions-table__index">{submission.indexNumber}</td>
      <td title={submission.programme}>{submission.programme}</td>
      <td>
        <StatusChips submission={submission} />
      </td>
    </tr>
  );
});
