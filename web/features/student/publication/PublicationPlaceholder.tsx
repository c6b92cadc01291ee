import { useId } from "react";
import { Loading } from "../../../components/ui/Loading.js";

/**
 * The Publication section's place before its part is there: until the student scrolls near it
 * (WhenNear), while its code loads (Suspense), and while its record is on its way. The same
 * heading at the same level as the loaded section, so a screen reader's headings list has
 * "Publication" from the first render and never changes, and a reserved height so the page below
 * does not jump when the part arrives. In the status page's own script, not the part's chunk.
 */
export function PublicationPlaceholder() {
  const headingId = useId();
  return (
    <section
      className="card status__publication status__publication--loading"
      aria-labelledby={headingId}
      aria-busy="true"
    >
      <h2 id={headingId}>Publication</h2>
      <Loading label="Loading your publication details..." />
    </section>
  );
}
