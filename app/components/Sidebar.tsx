import { useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import type { Role } from "../../db/schema";
import { activeNavItem, ROLE_LABELS, SIDEBAR } from "~/domain/roles";

function NavList({ role, pathname }: { role: Role; pathname: string }) {
  const items = SIDEBAR[role];
  const active = activeNavItem(items, pathname);
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const isActive = item === active;
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              aria-current={isActive ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium ${
                isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A fixed column on wide screens; on small screens a slide-over opened by a <details> toggle, so it
 * works without JavaScript.
 */
export function Sidebar({ role }: { role: Role }) {
  const { pathname } = useLocation();
  return (
    <>
      {/* Keyed by the page: a followed link lands with the menu closed, as it would without JS. */}
      <details key={pathname} className="border-b border-slate-200 bg-white lg:hidden">
        <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 text-sm font-semibold [&::-webkit-details-marker]:hidden">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
          </svg>
          Menú · {ROLE_LABELS[role]}
        </summary>
        <nav aria-label="Navegación del área (móvil)" className="px-3 pb-3">
          <NavList role={role} pathname={pathname} />
        </nav>
      </details>
      <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white lg:block">
        <nav aria-label="Navegación del área" className="sticky top-16 p-4">
          <p className="mb-3 px-3 text-xs font-semibold uppercase tracking-wide text-slate-600">
            {ROLE_LABELS[role]}
          </p>
          <NavList role={role} pathname={pathname} />
        </nav>
      </aside>
    </>
  );
}
