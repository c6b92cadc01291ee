import type { ReactNode } from "react";

export interface Fact {
  label: string;
  value: ReactNode;
}

/**
 * Label/value pairs as a description list, the way records are shown throughout the app.
 * Facts whose value is null or undefined are left out.
 */
export function FactList({ facts, className }: { facts: (Fact | null)[]; className: string }) {
  return (
    <dl className={className}>
      {facts.map((fact) =>
        fact && fact.value !== null && fact.value !== undefined ? (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
