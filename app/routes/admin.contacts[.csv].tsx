import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/models/auth.server";
import { exportContactSubmissions } from "~/models/contact-admin.server";
import { csvDate, csvResponse } from "~/services/csv.server";
import { db } from "~/services/db.server";
import { searchFromUrl } from "~/utils/like";

/** /admin/contacts.csv: the contact messages with the list's search, every page of it, as a CSV file. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const filters = { q: searchFromUrl(new URL(request.url)) };
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(
    `contactos-${day}.csv`,
    ["N.º", "Recibido (UTC)", "Nombre", "Correo", "Teléfono", "Empresa", "Mensaje"],
    (async function* () {
      for await (const rows of exportContactSubmissions(db, filters)) {
        yield rows.map((c) => [
          c.id,
          csvDate(c.created_at),
          c.name,
          c.email,
          c.phone ?? "",
          c.company ?? "",
          c.message,
        ]);
      }
    })(),
  );
}
