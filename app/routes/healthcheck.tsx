import { sql } from "kysely";
import { db } from "~/services/db.server";

/** Fly's HTTP check: answers 200 only when the database answers. */
export async function loader() {
  try {
    await sql`SELECT 1 FROM settings LIMIT 1`.execute(db);
    return new Response("OK", {
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  } catch {
    return new Response("Base de datos no disponible", { status: 503 });
  }
}
