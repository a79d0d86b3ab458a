import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";

/** The "← back" link above a detail or form page. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <nav aria-label="Ruta de navegación" className="text-sm">
      <Link to={to} className="btn-link">
        ← {children}
      </Link>
    </nav>
  );
}
