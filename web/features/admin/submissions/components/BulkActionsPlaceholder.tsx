import { useId } from "react";

/**
 * What the bulk actions bar shows while its code loads (it is loaded on the first selection, with
 * its validation): the same box, heading and row of fields, disabled, so the table below does not
 * move a second time under the pointer when the bar arrives (a second checkbox click would land
 * on another row). Hidden from assistive technology: it does nothing, and the real bar, a region
 * named "N selected", replaces it in a moment.
 */
export function BulkActionsPlaceholder({ count }: { count: number }) {
  const id = useId();
  return (
    <div className="bulk-actions" aria-hidden="true">
      <p className="bulk-actions__title">{count} selected</p>
      <div className="bulk-actions__form">
        <div className="field">
          <label htmlFor={`${id}-field`}>Set</label>
          <select id={`${id}-field`} disabled>
            <option>Loading…</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>To</label>
          <select id={`${id}-value`} disabled>
            <option>Choose…</option>
          </select>
        </div>
        <div className="actions">
          <button type="button" className="button button--small" disabled>
            Apply to {count}
          </button>
          <button type="button" className="button button--secondary button--small" disabled>
            Clear selection
          </button>
        </div>
      </div>
    </div>
  );
}
