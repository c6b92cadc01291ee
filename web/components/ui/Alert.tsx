import type { ReactNode } from "react";

type Tone = "error" | "success" | "info" | "warning";

/**
 * A message in the page. Errors and successes are announced to screen readers at once
 * (role="alert"); information is polite (role="status").
 */
export function Alert({ tone = "info", title, children, id }: { tone?: Tone; title?: string; children: ReactNode; id?: string }) {
  const role = tone === "error" || tone === "success" || tone === "warning" ? "alert" : "status";
  return (
    <div id={id} role={role} className={`alert alert--${tone}`}>
      {title ? <p className="alert__title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
