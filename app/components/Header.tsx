import { Form, useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import type { Role } from "../../db/schema";
import { ROLE_LABELS } from "~/domain/roles";
import { Logo } from "./Logo";
import { paths } from "~/utils/paths";

export interface HeaderUser {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
}

export function Header({ user, unread }: { user: HeaderUser | null; unread: number }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-3 sm:px-4">
        <Link to={paths.home()} aria-label="CotizaHub, ir al inicio">
          <Logo />
        </Link>
        {user ? (
          <div className="flex items-center gap-2">
            <NotificationBell unread={unread} />
            <UserMenu user={user} />
          </div>
        ) : (
          <nav aria-label="Cuenta" className="flex items-center gap-2">
            <Link
              to={paths.signIn()}
              className="btn-secondary whitespace-nowrap px-2.5 text-xs sm:px-4 sm:text-sm"
            >
              Iniciar Sesión
            </Link>
            <Link
              to={paths.signUp()}
              className="btn-primary whitespace-nowrap px-2.5 text-xs sm:px-4 sm:text-sm"
            >
              Comenzar
            </Link>
          </nav>
        )}
      </div>
    </header>
  );
}

/** SPEC §2: the badge caps at "9+". */
function unreadBadge(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 9 ? "9+" : String(unread);
}

function NotificationBell({ unread }: { unread: number }) {
  const badge = unreadBadge(unread);
  // The name holds the badge as shown («9+»), so it can be spoken to voice control (WCAG 2.5.3),
  // and the exact count when the badge caps it.
  const label = !badge
    ? "Notificaciones"
    : badge === String(unread)
      ? `Notificaciones, ${badge} sin leer`
      : `Notificaciones, ${badge} sin leer (${unread})`;
  return (
    <Link
      to={paths.notifications()}
      aria-label={label}
      className="relative rounded-md p-2 text-slate-700 hover:bg-slate-100"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-6 w-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path
          d="M18 8a6 6 0 10-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 01-3.4 0"
          strokeLinecap="round"
        />
      </svg>
      {badge ? (
        <span
          data-testid="notification-badge"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  );
}

function UserMenu({ user }: { user: HeaderUser }) {
  const initials = `${user.firstName[0] ?? ""}${user.lastName[0] ?? ""}`.toUpperCase();
  // Keyed by the page: a followed link lands with the menu closed, as it would without JS.
  const { pathname } = useLocation();
  return (
    <details key={pathname} className="group relative">
      {/* Named by its text, not an aria-label: the name then holds what is shown (WCAG 2.5.3),
          «Menú de usuario, Beatriz»; the initials are the avatar's picture. */}
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md p-1.5 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <span
          aria-hidden="true"
          className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
        >
          {initials || "?"}
        </span>
        <span className="sr-only">Menú de usuario, </span>
        <span className="sr-only text-sm font-medium sm:not-sr-only">{user.firstName}</span>
      </summary>
      <div className="absolute right-0 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
        <div className="border-b border-slate-100 px-3 py-2">
          <p className="font-semibold">
            {user.firstName} {user.lastName}
          </p>
          <p className="truncate text-sm text-slate-600" title={user.email}>
            {user.email}
          </p>
          <p className="mt-1 text-xs font-semibold uppercase tracking-wide text-brand-700">
            {ROLE_LABELS[user.role]}
          </p>
        </div>
        <Link to={paths.profile()} className="block rounded px-3 py-2 text-sm hover:bg-slate-100">
          Mi perfil
        </Link>
        <Link
          to={paths.notifications()}
          className="block rounded px-3 py-2 text-sm hover:bg-slate-100"
        >
          Notificaciones
        </Link>
        <Form method="post" action={paths.signOut()}>
          <button
            type="submit"
            className="block w-full rounded px-3 py-2 text-left text-sm text-red-800 hover:bg-red-50"
          >
            Cerrar sesión
          </button>
        </Form>
      </div>
    </details>
  );
}
