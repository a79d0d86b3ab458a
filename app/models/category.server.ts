import { sql } from "kysely";
import { fail, ok, type Result } from "~/domain/result";
import { writeTransaction, type DB } from "~/services/db.server";

export const DUPLICATE_CATEGORY_MESSAGE = "Ya existe una categoría con ese nombre.";

interface AdminCategoryRow {
  id: number;
  name: string;
  is_active: number;
  products: number;
}

export async function listCategoriesForAdmin(database: DB): Promise<AdminCategoryRow[]> {
  return database
    .selectFrom("categories as c")
    .select([
      "c.id",
      "c.name",
      "c.is_active",
      sql<number>`(SELECT count(*) FROM products p WHERE p.category_id = c.id)`.as("products"),
    ])
    .orderBy("c.name")
    .execute();
}

/** Every category for a product's select (inactive ones are labelled by the form). */
export function listCategoryOptions(database: DB) {
  return database
    .selectFrom("categories")
    .select(["id", "name", "is_active"])
    .orderBy("name")
    .execute();
}

type CategoryResult = Result<{ id: number }>;
const duplicateName = () => fail("invalid", DUPLICATE_CATEGORY_MESSAGE, "name");
const categoryNotFound = () => fail("not_found", "Categoría no encontrada.");

const folded = (name: string) => name.trim().toLocaleLowerCase("es");

/**
 * SQLite's NOCASE folds ASCII only ("Categoría" and "CATEGORÍA" differ there), so names are
 * compared here in Spanish lower case. The list of categories is small.
 */
async function nameTaken(tx: DB, name: string, exceptId: number | null): Promise<boolean> {
  const rows = await tx.selectFrom("categories").select(["id", "name"]).execute();
  return rows.some((row) => row.id !== exceptId && folded(row.name) === folded(name));
}

/** Names are unique regardless of case, accented letters included. */
export function createCategory(database: DB, name: string): Promise<CategoryResult> {
  return writeTransaction(database, async (tx) => {
    if (await nameTaken(tx, name, null)) return duplicateName();
    const { id } = await tx
      .insertInto("categories")
      .values({ name, is_active: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    return ok({ id });
  });
}

export function renameCategory(
  database: DB,
  { id, name }: { id: number; name: string },
): Promise<CategoryResult> {
  return writeTransaction(database, async (tx) => {
    if (await nameTaken(tx, name, id)) return duplicateName();
    const result = await tx
      .updateTable("categories")
      .set({ name })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return categoryNotFound();
    return ok({ id });
  });
}

/** A switched-off category hides its products from the public catalogue. */
export async function setCategoryActive(
  database: DB,
  { id, active }: { id: number; active: boolean },
): Promise<Result> {
  const result = await database
    .updateTable("categories")
    .set({ is_active: active ? 1 : 0 })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? ok() : categoryNotFound();
}
