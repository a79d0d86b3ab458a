import { sql } from "kysely";
import { fail, ok, type Result } from "~/domain/result";
import type { Role } from "../../db/schema";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { isRole } from "~/domain/roles";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { containsPattern } from "~/utils/like";
import { finishPage, type PageInfo, type PageRequest } from "~/utils/keyset";
import { inBatches, readKeysetPage } from "./keyset.server";
import { matchExpression, needsLiteralMatch } from "~/utils/search";

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

/** The users list's role filter from ?role= (anything else means every role). */
export function roleFromUrl(url: URL): Role | null {
  const role = url.searchParams.get("role");
  return isRole(role) ? role : null;
}

/** The users list's filters: a search over name, e-mail and company, and an optional role. */
function filteredUsers(database: DB, { q, role }: { q: string; role: Role | null }) {
  let query = database.selectFrom("users");
  if (role) query = query.where("role", "=", role);
  if (!q) return query;
  // Full-text (accent-insensitive, partial words) over name, company and e-mail; a literal
  // LIKE as well when the text has punctuation (an e-mail, "S.A.").
  const expression = matchExpression(q, ["name", "company", "email"]);
  if (expression)
    query = query.where(
      "id",
      "in",
      database
        .selectFrom("user_search")
        .select("user_search.rowid")
        .where(sql<boolean>`user_search MATCH ${expression}`),
    );
  if (!expression || needsLiteralMatch(q)) {
    const pattern = containsPattern(q);
    query = query.where(
      sql<boolean>`(first_name || ' ' || last_name LIKE ${pattern} ESCAPE '\\'
        OR email LIKE ${pattern} ESCAPE '\\'
        OR coalesce(company_name, '') LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  return query;
}

const adminUserColumns = [
  "id",
  "email",
  "first_name",
  "last_name",
  "company_name",
  "role",
  "email_verified_at",
  "created_at",
] as const;

/** Users for /admin/users: search over name, e-mail and company, an optional role, 25 a page. */
export async function listUsersForAdmin(
  database: DB,
  { q, role, page }: { q: string; role: Role | null; page: PageRequest },
): Promise<{ users: AdminUserRow[]; total: number; pageInfo: PageInfo }> {
  const query = filteredUsers(database, { q, role });
  const [read, total] = await Promise.all([
    readKeysetPage(
      query.select(adminUserColumns),
      page,
      { key: "created_at", id: "id" },
      ADMIN_PAGE_SIZE,
    ),
    q
      ? query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()
      : database
          .selectFrom("user_role_counts")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("users"), eb.lit(0)).as("n"))
          .$if(role !== null, (qb) => qb.where("role", "=", role!))
          .executeTakeFirstOrThrow(),
  ]);
  const { rows, pageInfo } = finishPage(read, page, ADMIN_PAGE_SIZE, (u) => ({
    key: u.created_at,
    id: u.id,
  }));
  return { users: rows, total: Number(total.n), pageInfo };
}

/** Every user the users list shows with these filters, for the CSV export, newest first, in batches. */
export async function* exportAdminUsers(
  database: DB,
  { q, role }: { q: string; role: Role | null },
) {
  // `+role` keeps SQLite reading the batches down the primary key (one pass over the table in
  // all): through users_role_created, on a database without statistics, it sorted the role's
  // whole set again for every batch (90,000 buyers: 12 s instead of under 1 s).
  const query = filteredUsers(database, { q, role: null })
    .$if(role !== null, (qb) => qb.where(sql<boolean>`+users.role = ${role}`))
    .select([...adminUserColumns, "phone"]);
  yield* inBatches(query, "users.id");
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
