import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { paths } from "~/utils/paths";

function Tab({ to, children }: { to: string; children: ReactNode }) {
  return (
    <NavLink
      to={to}
      end
      className={({ isActive }) =>
        `-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${isActive ? "border-brand-700 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"}`
      }
    >
      {children}
    </NavLink>
  );
}

/** SPEC §2: the admin panel's two tabs, Cotizaciones (/admin) and Pagos (/admin/payments). */
export function AdminPanelTabs({ awaitingReview }: { awaitingReview: number }) {
  return (
    <nav aria-label="Secciones del panel" className="flex gap-2 border-b border-slate-200">
      <Tab to={paths.admin.home()}>Cotizaciones</Tab>
      <Tab to={paths.admin.payments()}>
        Pagos
        {awaitingReview > 0 ? (
          <span className="ml-2 rounded-full bg-amber-100 px-2 text-xs text-amber-900">
            {awaitingReview}
          </span>
        ) : null}
      </Tab>
    </nav>
  );
}
