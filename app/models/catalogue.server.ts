import { sql } from "kysely";
import type { DB } from "~/services/db.server";
import { INVITATION_ANSWERED } from "./user.server";

interface CatalogueCategory {
  id: number;
  name: string;
}

interface CatalogueProduct {
  id: number;
  name: string;
  description: string | null;
  sku: string | null;
  basePriceCents: number | null;
  categoryId: number | null;
  categoryName: string | null;
  hasImage: boolean;
  /** The partner who supplies the product (company, else first and last name); null when none. */
  supplierName: string | null;
}

const CATALOGUE_LIMIT = 8;

/** The landing's category chips: active categories with at least one active product to show. */
export function listActiveCategories(database: DB): Promise<CatalogueCategory[]> {
  return database
    .selectFrom("categories as c")
    .select(["c.id", "c.name"])
    .where("c.is_active", "=", 1)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("products as p")
          .select("p.id")
          .whereRef("p.category_id", "=", "c.id")
          .where("p.is_active", "=", 1),
      ),
    )
    .orderBy("c.name")
    .execute();
}

/**
 * Active products for the public catalogue, newest first. A product in a category an admin has
 * switched off is hidden with it; the supplier is only named while it is an active partner account
 * (the landing's featured partners leave a deactivated one out too, see listLandingPartners).
 */
export async function listCatalogueProducts(
  database: DB,
  { categoryId, limit = CATALOGUE_LIMIT }: { categoryId?: number | null; limit?: number } = {},
): Promise<CatalogueProduct[]> {
  let query = database
    .selectFrom("products as p")
    .leftJoin("categories as c", "c.id", "p.category_id")
    .leftJoin("users as s", (join) =>
      join
        .onRef("s.id", "=", "p.supplier_id")
        .on("s.role", "=", "partner")
        .on("s.deactivated_at", "is", null),
    )
    .select([
      "p.id",
      "p.name",
      "p.description",
      "p.sku",
      "p.base_price_cents as basePriceCents",
      "p.category_id as categoryId",
      "c.name as categoryName",
      sql<number>`p.image_key IS NOT NULL`.as("hasImage"),
      sql<
        string | null
      >`coalesce(nullif(trim(s.company_name), ''), nullif(trim(s.first_name || ' ' || s.last_name), ''))`.as(
        "supplierName",
      ),
    ])
    .where("p.is_active", "=", 1)
    .where((eb) => eb.or([eb("p.category_id", "is", null), eb("c.is_active", "=", 1)]));
  if (categoryId) query = query.where("p.category_id", "=", categoryId);
  const rows = await query
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, hasImage: Boolean(row.hasImage) }));
}

/**
 * The landing's featured partners («Socio Verificado»): partners an operator featured whose
 * account is active and activated. The flag alone is not trusted: one set before the account was
 * deactivated, or on an invitation still pending, shows nobody.
 */
export function listLandingPartners(database: DB, limit = 5) {
  return database
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "company_name"])
    .where("role", "=", "partner")
    .where("is_featured_partner", "=", 1)
    .where("deactivated_at", "is", null)
    .where(INVITATION_ANSWERED)
    .orderBy("company_name")
    .limit(limit)
    .execute();
}
