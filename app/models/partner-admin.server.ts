import { sql } from "kysely";
import { fail, ok, type Result } from "~/domain/result";
import { now, type DB } from "~/services/db.server";
import { containsPattern } from "~/utils/like";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { INVITATION_ANSWERED, INVITATION_PENDING } from "./user.server";
import { pageStartsWithin } from "./keyset.server";

interface PartnerLoadRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  phone: string | null;
  is_featured_partner: number;
  /** Set when the account is deactivated: no longer featured or assigned. */
  deactivated_at: string | null;
  /** 1 while the partner was invited and has not chosen a password: not featured yet. */
  invitation_pending: number;
  assigned: number;
  quoted: number;
  won: number;
}

/** Partners for /admin/partners with their load: requests assigned, quotes sent, quotes won. */
export async function listPartnersForAdmin(
  database: DB,
  { q, page }: { q: string; page: number },
): Promise<{ partners: PartnerLoadRow[]; total: number }> {
  let query = database.selectFrom("users as u").where("u.role", "=", "partner");
  if (q) {
    const pattern = containsPattern(q);
    query = query.where(
      sql<boolean>`(u.first_name || ' ' || u.last_name LIKE ${pattern} ESCAPE '\\'
        OR u.email LIKE ${pattern} ESCAPE '\\'
        OR coalesce(u.company_name, '') LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const total = Number(
    (await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
  );
  if (!pageStartsWithin(page, ADMIN_PAGE_SIZE, total)) return { partners: [], total };
  const rows = await query
    .leftJoin("partner_counters as c", "c.partner_id", "u.id")
    .select([
      "u.id",
      "u.email",
      "u.first_name",
      "u.last_name",
      "u.company_name",
      "u.phone",
      "u.is_featured_partner",
      "u.deactivated_at",
      sql<number>`${INVITATION_PENDING}`.as("invitation_pending"),
      // Kept by triggers in the writing transaction (desk summaries): no count per row.
      sql<number>`coalesce(c.assigned, 0)`.as("assigned"),
      sql<number>`coalesce(c.submitted, 0)`.as("quoted"),
      sql<number>`coalesce(c.selected, 0)`.as("won"),
    ])
    .orderBy("u.is_featured_partner", "desc")
    .orderBy(sql`coalesce(nullif(trim(u.company_name), ''), u.first_name)`)
    .orderBy("u.id")
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE)
    .execute();
  return { partners: rows, total };
}

export const FEATURE_PENDING_MESSAGE =
  "Este socio aún no activó su cuenta (invitación pendiente): podrás destacarlo cuando elija su contraseña.";

/**
 * Marks a partner as featured on the landing (or not). The landing calls them «Socio Verificado»,
 * so only an active partner who has activated their account may join it; any partner may leave.
 */
export async function setPartnerFeatured(
  database: DB,
  { partnerId, featured }: { partnerId: number; featured: boolean },
): Promise<Result> {
  // The conditions are in the UPDATE itself, so a deactivation racing with it cannot slip through.
  const result = await database
    .updateTable("users")
    .set({ is_featured_partner: featured ? 1 : 0, updated_at: now() })
    .where("id", "=", partnerId)
    .where("role", "=", "partner")
    .$if(featured, (q) => q.where("deactivated_at", "is", null).where(INVITATION_ANSWERED))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return ok();
  if (!featured) return fail("not_found", "Socio no encontrado.");
  const pending = await database
    .selectFrom("users")
    .select("id")
    .where("id", "=", partnerId)
    .where("role", "=", "partner")
    .where("deactivated_at", "is", null)
    .where(INVITATION_PENDING)
    .executeTakeFirst();
  return pending
    ? fail("locked", FEATURE_PENDING_MESSAGE)
    : fail("not_found", "Socio no encontrado o desactivado.");
}

const ASSIGNABLE_LIMIT = 40;

/**
 * Requests an admin may still assign this partner to: pending first, then assigned, newest first,
 * leaving out those the partner already has (an invitation the operator withdrew may be renewed).
 * Two index range reads (status, created_at) rather than one sort over every open request.
 */
export async function listAssignableRequests(
  database: DB,
  partnerId: number,
  limit = ASSIGNABLE_LIMIT,
) {
  const newest = (status: "pending" | "assigned", count: number) =>
    database
      .selectFrom("quote_requests")
      .select(["id", "title", "status"])
      .where("status", "=", status)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("partner_assignments as pa")
              .select("pa.id")
              .whereRef("pa.quote_request_id", "=", "quote_requests.id")
              .where("pa.partner_id", "=", partnerId)
              .where("pa.state", "!=", "withdrawn"),
          ),
        ),
      )
      .orderBy("created_at", "desc")
      .limit(count)
      .execute();
  const pending = await newest("pending", limit);
  if (pending.length >= limit) return pending;
  return [...pending, ...(await newest("assigned", limit - pending.length))];
}

/** Every partner as a choice for a product's supplier. */
export function listPartnerOptions(database: DB): Promise<{ id: number; name: string }[]> {
  return database
    .selectFrom("users")
    .select([
      "id",
      sql<string>`coalesce(nullif(trim(company_name), ''), first_name || ' ' || last_name)`.as(
        "name",
      ),
    ])
    .where("role", "=", "partner")
    .orderBy("name")
    .execute();
}
