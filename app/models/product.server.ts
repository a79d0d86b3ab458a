import { sql } from "kysely";
import { centsToInput } from "~/domain/money";
import { fail, ok, type Result } from "~/domain/result";
import type { ProductFormDefaults, ProductFormValue, ProductImage } from "~/domain/product";
import { db, now, writeTransaction, type DB } from "~/services/db.server";
import { containsPattern } from "~/utils/like";
import { matchExpression, needsLiteralMatch } from "~/utils/search";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { pageStartsWithin } from "./keyset.server";

const supplierName = sql<
  string | null
>`coalesce(nullif(trim(s.company_name), ''), nullif(trim(s.first_name || ' ' || s.last_name), ''))`;

interface AdminProductRow {
  id: number;
  name: string;
  sku: string | null;
  base_price_cents: number | null;
  stock_quantity: number;
  is_active: number;
  has_image: number;
  category_name: string | null;
  /** 0 when the product's category is switched off (the product is then off the catalogue). */
  category_active: number | null;
  supplier_name: string | null;
}

export async function listProductsForAdmin(
  database: DB,
  { q, page }: { q: string; page: number },
): Promise<{ products: AdminProductRow[]; total: number }> {
  let query = database
    .selectFrom("products as p")
    .leftJoin("categories as c", "c.id", "p.category_id")
    .leftJoin("users as s", "s.id", "p.supplier_id");
  if (q) {
    // Full-text (accent-insensitive, partial words) over name and SKU, as the other searches; a
    // literal LIKE as well when the text has LIKE's own wildcards ("100%", "Lote_esp").
    const expression = matchExpression(q, ["name", "sku"]);
    if (expression)
      query = query.where(
        "p.id",
        "in",
        database
          .selectFrom("product_search")
          .select("product_search.rowid")
          .where(sql<boolean>`product_search MATCH ${expression}`),
      );
    if (!expression || needsLiteralMatch(q)) {
      const pattern = containsPattern(q);
      query = query.where(
        sql<boolean>`(p.name LIKE ${pattern} ESCAPE '\\' OR coalesce(p.sku, '') LIKE ${pattern} ESCAPE '\\')`,
      );
    }
  }
  // A product has at most one category and one supplier: the joins never change the count.
  const total = Number(
    (
      await (q ? query : database.selectFrom("products as p"))
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (!pageStartsWithin(page, ADMIN_PAGE_SIZE, total)) return { products: [], total };
  const products = await query
    .select([
      "p.id",
      "p.name",
      "p.sku",
      "p.base_price_cents",
      "p.stock_quantity",
      "p.is_active",
      sql<number>`p.image_key IS NOT NULL`.as("has_image"),
      "c.name as category_name",
      "c.is_active as category_active",
      supplierName.as("supplier_name"),
    ])
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE)
    .execute();
  return { products, total };
}

export function getProductForAdmin(database: DB, id: number) {
  return database
    .selectFrom("products as p")
    .leftJoin("users as s", "s.id", "p.supplier_id")
    .select([
      "p.id",
      "p.name",
      "p.sku",
      "p.description",
      "p.category_id",
      "p.supplier_id",
      "p.base_price_cents",
      "p.stock_quantity",
      "p.is_active",
      "p.image_key",
      "p.image_type",
      "p.updated_at",
      supplierName.as("supplier_name"),
    ])
    .where("p.id", "=", id)
    .executeTakeFirst();
}

/**
 * The edit form's values for a product, or null when it does not exist. Takes the app database by
 * default because the edit route calls it as `productDefaults(id)`.
 */
export async function productDefaults(
  id: number,
  database: DB = db,
): Promise<ProductFormDefaults | null> {
  const product = await getProductForAdmin(database, id);
  if (!product) return null;
  return {
    name: product.name,
    sku: product.sku ?? "",
    description: product.description ?? "",
    category_id: product.category_id ? String(product.category_id) : "",
    supplier_id: product.supplier_id ? String(product.supplier_id) : "",
    base_price: product.base_price_cents === null ? "" : centsToInput(product.base_price_cents),
    stock_quantity: String(product.stock_quantity),
    is_active: product.is_active === 1,
    edited_from: product.updated_at,
  };
}

type ProductInput = Omit<ProductFormValue, "removeImage" | "editedFrom"> & {
  editedFrom?: string | null;
};

type FieldErrors = Partial<Record<"category_id" | "supplier_id" | "sku", string[]>>;
type ProductWriteResult = Result<{ id: number; replacedImageKey: string | null }>;
const productNotFound = () => fail("not_found", "Producto no encontrado.");
const refused = (fieldErrors: FieldErrors) =>
  fail("invalid", "Revisa los campos marcados.", fieldErrors as Record<string, string[]>);

/**
 * The category must exist; the supplier must be a partner account; a SKU names one product only
 * (ignoring case), `productId` being the one edited.
 */
async function productProblems(
  tx: DB,
  input: ProductInput,
  productId: number | null = null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (input.sku) {
    const taken = await tx
      .selectFrom("products")
      .select("name")
      .where(sql<boolean>`lower(sku) = lower(${input.sku})`)
      .$if(productId !== null, (q) => q.where("id", "!=", productId!))
      .executeTakeFirst();
    if (taken) errors.sku = [`El SKU «${input.sku}» ya es de «${taken.name}».`];
  }
  if (input.category_id !== null) {
    const category = await tx
      .selectFrom("categories")
      .select("id")
      .where("id", "=", input.category_id)
      .executeTakeFirst();
    if (!category) errors.category_id = ["La categoría elegida ya no existe."];
  }
  if (input.supplier_id !== null) {
    const supplier = await tx
      .selectFrom("users")
      .select("id")
      .where("id", "=", input.supplier_id)
      .where("role", "=", "partner")
      .executeTakeFirst();
    if (!supplier) errors.supplier_id = ["El proveedor elegido no es un socio."];
  }
  return errors;
}

function columns(input: ProductInput) {
  return {
    name: input.name,
    sku: input.sku,
    description: input.description,
    category_id: input.category_id,
    supplier_id: input.supplier_id,
    base_price_cents: input.basePriceCents,
    stock_quantity: input.stock_quantity,
    is_active: input.isActive ? 1 : 0,
  };
}

/** Stores a product. The image file, when any, is already committed; the caller deletes it on failure. */
export function createProduct(
  database: DB,
  input: ProductInput,
  image: ProductImage | null,
): Promise<ProductWriteResult> {
  return writeTransaction(database, async (tx) => {
    const fieldErrors = await productProblems(tx, input);
    if (Object.keys(fieldErrors).length) return refused(fieldErrors);
    const timestamp = now();
    const { id } = await tx
      .insertInto("products")
      .values({
        ...columns(input),
        image_key: image?.key ?? null,
        image_type: image?.type ?? null,
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return ok({ id, replacedImageKey: null });
  });
}

/**
 * Updates a product; a new image (or `removeImage`) replaces the old one, whose key comes back for
 * the caller to delete once the row no longer points to it.
 */
export function updateProduct(
  database: DB,
  id: number,
  input: ProductInput,
  { image, removeImage }: { image: ProductImage | null; removeImage: boolean },
): Promise<ProductWriteResult> {
  return writeTransaction(database, async (tx) => {
    const current = await tx
      .selectFrom("products")
      .select(["id", "image_key", "updated_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!current) return productNotFound();
    if (input.editedFrom && input.editedFrom !== current.updated_at)
      return fail(
        "conflict",
        "Este producto cambió mientras lo editabas (en otra pestaña o por otro administrador). Recarga la página para ver sus datos actuales y vuelve a guardar tus cambios.",
      );
    const fieldErrors = await productProblems(tx, input, id);
    if (Object.keys(fieldErrors).length) return refused(fieldErrors);
    const replacing = image !== null || removeImage;
    await tx
      .updateTable("products")
      .set({
        ...columns(input),
        ...(replacing ? { image_key: image?.key ?? null, image_type: image?.type ?? null } : {}),
        updated_at: now(),
      })
      .where("id", "=", id)
      .execute();
    return ok({ id, replacedImageKey: replacing ? current.image_key : null });
  });
}

/** Deletes the row and returns its image key (to delete the file after). */
export function deleteProduct(
  database: DB,
  id: number,
): Promise<Result<{ imageKey: string | null }>> {
  return writeTransaction(database, async (tx) => {
    const row = await tx
      .deleteFrom("products")
      .where("id", "=", id)
      .returning("image_key")
      .executeTakeFirst();
    return row ? ok({ imageKey: row.image_key }) : productNotFound();
  });
}

/** A product's image; only an active product's unless `includeInactive` (for admins). */
export function getProductImage(
  database: DB,
  id: number,
  { includeInactive }: { includeInactive: boolean },
) {
  let query = database
    .selectFrom("products")
    .select(["image_key as key", "image_type as type"])
    .where("id", "=", id)
    .where("image_key", "is not", null);
  if (!includeInactive) query = query.where("is_active", "=", 1);
  return query.executeTakeFirst();
}
