import type { Role } from "../../db/schema";

export const ROLES = ["buyer", "partner", "admin"] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = {
  buyer: "Comprador",
  partner: "Socio",
  admin: "Administrador",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** SPEC §2: the home is /{role}; with no profile it is /auth; a missing role counts as buyer. */
export function homeFor(user: { role?: string | null } | null | undefined): string {
  if (!user) return "/auth";
  return `/${isRole(user.role) ? user.role : "buyer"}`;
}

/** The role an area of the site requires, from the first path segment. */
function roleForPath(pathname: string): Role | null {
  const first = pathname.split("/")[1] ?? "";
  return isRole(first) ? first : null;
}

/**
 * Where a request for `pathname` goes: `null` when it may proceed, otherwise the redirect target.
 * Unauthenticated visitors of a role area go to /auth (remembering where they were going);
 * a signed-in user of another role goes to their own home.
 */
export function guardRedirect(
  pathname: string,
  search: string,
  user: { role?: string | null } | null,
): string | null {
  const required = roleForPath(pathname);
  if (!required) return null;
  if (!user) return `/auth?redirectTo=${encodeURIComponent(pathname + search)}`;
  const role = isRole(user.role) ? user.role : "buyer";
  return role === required ? null : homeFor(user);
}

interface NavItem {
  to: string;
  label: string;
  /** The index route is active only on an exact match; others by path prefix. */
  end?: boolean;
}

export const SIDEBAR: Record<Role, NavItem[]> = {
  buyer: [
    { to: "/buyer", label: "Tablero", end: true },
    { to: "/buyer/quotes", label: "Mis Cotizaciones" },
    { to: "/buyer/payments", label: "Pagos" },
    { to: "/buyer/rewards", label: "Recompensas" },
  ],
  partner: [
    { to: "/partner", label: "Tablero", end: true },
    { to: "/partner/assignments", label: "Solicitudes de Cotización" },
  ],
  admin: [
    { to: "/admin", label: "Panel", end: true },
    { to: "/admin/quotes", label: "Cotizaciones" },
    { to: "/admin/users", label: "Usuarios" },
    { to: "/admin/products", label: "Productos" },
    { to: "/admin/partners", label: "Socios" },
    { to: "/admin/analytics", label: "Analíticas" },
    { to: "/admin/contacts", label: "Contactos" },
    { to: "/admin/settings", label: "Configuración" },
  ],
};

/** SPEC §2: the active item is the one whose route matches the start of the current path. */
export function activeNavItem(items: NavItem[], pathname: string): NavItem | undefined {
  const matches = items.filter((item) =>
    item.end
      ? pathname === item.to || pathname === `${item.to}/`
      : pathname === item.to || pathname.startsWith(`${item.to}/`),
  );
  return matches.sort((a, b) => b.to.length - a.to.length)[0];
}
