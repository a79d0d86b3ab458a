import { sql } from "kysely";
import { fail, ok, type Result } from "~/domain/result";
import type { Role } from "../../db/schema";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { containsPattern } from "~/utils/like";

export const LAST_ADMIN_MESSAGE =
  "No se puede quitar el rol de administrador al último administrador. Asigna primero el rol de administrador a otra persona.";

interface AdminUserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  role: Role;
  email_verified_at: string | null;
  created_at: string;
}

/** Users for /admin/users: search over name, e-mail and company, an optional role, 25 a page. */
export async function listUsersForAdmin(
  database: DB,
  { q, role, page }: { q: string; role: Role | null; page: number },
): Promise<{ users: AdminUserRow[]; total: number }> {
  let query = database.selectFrom("users");
  if (role) query = query.where("role", "=", role);
  if (q) {
    const pattern = containsPattern(q);
    query = query.where(
      sql<boolean>`(first_name || ' ' || last_name LIKE ${pattern} ESCAPE '\\'
        OR email LIKE ${pattern} ESCAPE '\\'
        OR coalesce(company_name, '') LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const [users, count] = await Promise.all([
    query
      .select([
        "id",
        "email",
        "first_name",
        "last_name",
        "company_name",
        "role",
        "email_verified_at",
        "created_at",
      ])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { users, total: Number(count.n) };
}

/**
 * Changes a user's role. The last admin keeps theirs (checked inside the write transaction, so two
 * admins demoting each other at once cannot both succeed). Only partners can stay featured.
 */
export function changeUserRole(
  database: DB,
  { userId, role }: { userId: number; role: Role },
): Promise<Result> {
  return writeTransaction(database, async (tx) => {
    const user = await tx
      .selectFrom("users")
      .select(["id", "role"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) return fail("not_found", "Usuario no encontrado.");
    if (user.role === role) return ok();
    if (user.role === "admin") {
      const { n } = await tx
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("role", "=", "admin")
        .executeTakeFirstOrThrow();
      if (Number(n) <= 1) return fail("conflict", LAST_ADMIN_MESSAGE);
    }
    await tx
      .updateTable("users")
      .set({
        role,
        updated_at: now(),
        ...(role === "partner" ? {} : { is_featured_partner: 0 }),
      })
      .where("id", "=", userId)
      .execute();
    return ok();
  });
}
