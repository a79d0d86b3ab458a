import type { ReactNode } from "react";

/** A titled card of a page; the heading names the region for screen readers. */
export function Section({
  id,
  anchor,
  title,
  children,
  className = "",
}: {
  id: string;
  /** The section's own id, for links to it (`#asignar-socios`). */
  anchor?: string;
  title: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section id={anchor} aria-labelledby={id} className={`card ${className}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
