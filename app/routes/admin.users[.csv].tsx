import type { LoaderFunctionArgs } from "@remix-run/node";
import { dateRangeFrom, sortFrom, USER_SORTS } from "~/domain/list-filters";
import { ROLE_LABELS } from "~/domain/roles";
import { accountStatusFromUrl, exportAdminUsers, roleFromUrl } from "~/models/admin-user.server";
import { requireRole } from "~/models/auth.server";
import { csvDate, csvResponse } from "~/services/csv.server";
import { db } from "~/services/db.server";
import { searchFromUrl } from "~/utils/like";

/**
 * /admin/users.csv: the users list with its current filters (search, role, account, days of
 * sign-up) and sort, every page of it, as a CSV file.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const filters = {
    q: searchFromUrl(url),
    role: roleFromUrl(url),
    status: accountStatusFromUrl(url),
    range: dateRangeFrom(url.searchParams).range,
    sort: sortFrom(url.searchParams.get("orden"), USER_SORTS),
  };
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(
    `usuarios-${day}.csv`,
    [
      "Usuario",
      "Nombre",
      "Apellidos",
      "Correo",
      "Empresa",
      "Teléfono",
      "Rol",
      "Verificación",
      "Cuenta",
      "Alta (UTC)",
    ],
    (async function* () {
      for await (const rows of exportAdminUsers(db, filters)) {
        yield rows.map((u) => [
          u.id,
          u.first_name,
          u.last_name,
          u.email,
          u.company_name ?? "",
          u.phone ?? "",
          ROLE_LABELS[u.role],
          u.email_verified_at ? "Verificado" : "Sin verificar",
          u.deactivated_at
            ? `Desactivada el ${csvDate(u.deactivated_at)}`
            : u.invitation_pending
              ? "Invitación pendiente"
              : "Activa",
          csvDate(u.created_at),
        ]);
      }
    })(),
  );
}
