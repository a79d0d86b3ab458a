import { describe, expect, it } from "vitest";
import { packOptions, unpackOptions } from "~/domain/admin-lists";
import { productSchema, PRICE_MESSAGE, STOCK_MESSAGE } from "~/domain/product";
import { settingsFormSchema } from "~/domain/settings-form";
import { changeUserRole, LAST_ADMIN_MESSAGE } from "~/models/admin-user.server";
import { listActiveCategories, listCatalogueProducts } from "~/models/catalogue.server";
import {
  createCategory,
  renameCategory,
  DUPLICATE_CATEGORY_MESSAGE,
} from "~/models/category.server";
import { listAssignableRequests, setPartnerFeatured } from "~/models/partner-admin.server";
import {
  createProduct,
  deleteProduct,
  getProductImage,
  listProductsForAdmin,
  productDefaults,
  updateProduct,
} from "~/models/product.server";
import { listLandingPartners } from "~/models/catalogue.server";
import { db } from "~/services/db.server";
import { makeRequest } from "./factories";

let counter = 0;
async function user(role: "buyer" | "partner" | "admin", company = "Empresa Prueba") {
  counter += 1;
  const { id } = await db
    .insertInto("users")
    .values({
      email: `u${counter}@ejemplo.test`,
      password_hash: "x",
      first_name: "Nombre",
      last_name: `Apellido${counter}`,
      company_name: company,
      role,
      updated_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

const roleOf = async (id: number) =>
  (await db.selectFrom("users").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;

function parseProduct(fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const entries = Object.fromEntries(
    [...form.entries()].map(([k, v]) => [k, v === "" ? undefined : v]),
  );
  return productSchema.safeParse(entries);
}

describe("roles: el último administrador conserva su rol", () => {
  it("rechaza quitar el rol al único administrador y lo permite cuando hay otro", async () => {
    const first = await user("admin");
    const refused = await changeUserRole(db, { userId: first, role: "buyer" });
    expect(refused).toEqual({ ok: false, code: "conflict", message: LAST_ADMIN_MESSAGE });
    expect(await roleOf(first)).toBe("admin");

    const second = await user("admin");
    expect(await changeUserRole(db, { userId: first, role: "partner" })).toEqual({
      ok: true,
      value: { changed: true },
    });
    // Saving the role a user already has changes nothing, and says so.
    expect(await changeUserRole(db, { userId: first, role: "partner" })).toEqual({
      ok: true,
      value: { changed: false },
    });
    expect(await roleOf(first)).toBe("partner");
    // Now `second` is the last one.
    expect((await changeUserRole(db, { userId: second, role: "buyer" })).ok).toBe(false);
    expect(await roleOf(second)).toBe("admin");
  });

  it("un socio que deja de serlo deja de estar destacado; usuario inexistente da error", async () => {
    const partner = await user("partner", "Destacada S.A.");
    expect((await setPartnerFeatured(db, { partnerId: partner, featured: true })).ok).toBe(true);
    expect((await listLandingPartners(db)).map((p) => p.id)).toContain(partner);
    await changeUserRole(db, { userId: partner, role: "buyer" });
    expect((await listLandingPartners(db)).map((p) => p.id)).not.toContain(partner);
    // Only partners can be featured.
    expect((await setPartnerFeatured(db, { partnerId: partner, featured: true })).ok).toBe(false);
    expect(await changeUserRole(db, { userId: 999_999, role: "buyer" })).toEqual({
      ok: false,
      code: "not_found",
      message: "Usuario no encontrado.",
    });
  });

  it("un socio desactivado no se puede destacar, pero sí dejar de destacar", async () => {
    const partner = await user("partner", "Dada de Baja S.A.");
    expect((await setPartnerFeatured(db, { partnerId: partner, featured: true })).ok).toBe(true);
    await db
      .updateTable("users")
      .set({ deactivated_at: new Date().toISOString() })
      .where("id", "=", partner)
      .execute();
    expect(await setPartnerFeatured(db, { partnerId: partner, featured: true })).toMatchObject({
      ok: false,
      message: "Socio no encontrado o desactivado.",
    });
    expect((await setPartnerFeatured(db, { partnerId: partner, featured: false })).ok).toBe(true);
    const row = await db
      .selectFrom("users")
      .select("is_featured_partner")
      .where("id", "=", partner)
      .executeTakeFirstOrThrow();
    expect(row.is_featured_partner).toBe(0);
  });
});

const noImage = { image: null, removeImage: false };

/** A product as the model takes it: the form's defaults, with `fields` over them. */
const productInput = (fields: {
  name: string;
  sku?: string | null;
  basePriceCents?: number | null;
  stock_quantity?: number;
}) => ({
  sku: null,
  description: null,
  category_id: null,
  supplier_id: null,
  basePriceCents: null,
  stock_quantity: 0,
  isActive: true,
  ...fields,
});

describe("validación de productos (SPEC §5)", () => {
  it("exige el nombre; sku, descripción y categoría son opcionales", () => {
    const missing = parseProduct({ name: "  " });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe("El nombre es obligatorio.");
    const minimal = parseProduct({ name: "Tornillo" });
    expect(minimal.success && minimal.data).toMatchObject({
      name: "Tornillo",
      sku: null,
      description: null,
      category_id: null,
      supplier_id: null,
      basePriceCents: null,
      stock_quantity: 0,
      isActive: true,
    });
  });

  it("el precio acepta punto o coma y puede quedar vacío", () => {
    const comma = parseProduct({ name: "A", base_price: "1234,50" });
    expect(comma.success && comma.data.basePriceCents).toBe(123_450);
    const dot = parseProduct({ name: "A", base_price: "99.9" });
    expect(dot.success && dot.data.basePriceCents).toBe(9_990);
    const grouped = parseProduct({ name: "A", base_price: "1.234,50" });
    expect(grouped.success && grouped.data.basePriceCents).toBe(123_450);
    for (const bad of ["abc", "-5", "12.345"]) {
      const result = parseProduct({ name: "A", base_price: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(PRICE_MESSAGE);
    }
  });

  it("la existencia es un entero >= 0 (0 por defecto)", () => {
    const ok = parseProduct({ name: "A", stock_quantity: "25" });
    expect(ok.success && ok.data.stock_quantity).toBe(25);
    for (const bad of ["-3", "2.5", "diez"]) {
      const result = parseProduct({ name: "A", stock_quantity: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(STOCK_MESSAGE);
    }
  });

  it("una casilla activa sin marcar en el formulario desactiva el producto", () => {
    const unchecked = parseProduct({ name: "A", is_active_shown: "1" });
    expect(unchecked.success && unchecked.data.isActive).toBe(false);
    const checked = parseProduct({ name: "A", is_active_shown: "1", is_active: "on" });
    expect(checked.success && checked.data.isActive).toBe(true);
  });

  it("el proveedor debe ser un socio y el catálogo muestra el proveedor real", async () => {
    const buyer = await user("buyer");
    const partner = await user("partner", "Aceros del Norte S.A.");
    const category = await createCategory(db, "Ferretería");
    expect(category.ok).toBe(true);
    const base = {
      name: "Taladro industrial",
      sku: "TAL-1",
      description: null,
      category_id: category.ok ? category.value.id : null,
      basePriceCents: 150_000,
      stock_quantity: 3,
      isActive: true,
    };
    const refused = await createProduct(db, { ...base, supplier_id: buyer }, null);
    expect(refused).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { supplier_id: ["El proveedor elegido no es un socio."] },
    });
    const created = await createProduct(
      db,
      { ...base, supplier_id: partner },
      { key: "2026/11/imagen.png", type: "image/png" },
    );
    expect(created.ok).toBe(true);
    const id = created.ok ? created.value.id : 0;
    const catalogue = await listCatalogueProducts(db);
    expect(catalogue.find((p) => p.id === id)).toMatchObject({
      name: "Taladro industrial",
      supplierName: "Aceros del Norte S.A.",
      categoryName: "Ferretería",
      basePriceCents: 150_000,
    });
    // The landing offers the category while it has an active product to show.
    expect((await listActiveCategories(db)).map((c) => c.name)).toContain("Ferretería");
    // A category switched off takes its products off the catalogue; the admin list says so.
    const row = async () =>
      (await listProductsForAdmin(db, { q: "Taladro industrial", page: 1 })).products[0];
    expect((await row())?.category_active).toBe(1);
    await db
      .updateTable("categories")
      .set({ is_active: 0 })
      .where("name", "=", "Ferretería")
      .execute();
    expect((await row())?.category_active).toBe(0);
    expect((await listCatalogueProducts(db)).some((p) => p.id === id)).toBe(false);
    await db
      .updateTable("categories")
      .set({ is_active: 1 })
      .where("name", "=", "Ferretería")
      .execute();
    // A deactivated supplier is no longer named on the public catalogue.
    await db
      .updateTable("users")
      .set({ deactivated_at: new Date().toISOString() })
      .where("id", "=", partner)
      .execute();
    expect((await listCatalogueProducts(db)).find((p) => p.id === id)?.supplierName).toBeNull();
    await db.updateTable("users").set({ deactivated_at: null }).where("id", "=", partner).execute();

    // Replacing the image hands back the old key for deletion.
    const updated = await updateProduct(
      db,
      id,
      { ...base, supplier_id: partner, isActive: false },
      { image: { key: "2026/11/otra.webp", type: "image/webp" }, removeImage: false },
    );
    expect(updated).toEqual({ ok: true, value: { id, replacedImageKey: "2026/11/imagen.png" } });
    expect((await listCatalogueProducts(db)).some((p) => p.id === id)).toBe(false);
    expect((await listActiveCategories(db)).map((c) => c.name)).not.toContain("Ferretería");

    // An inactive product's image is not public; admins still reach it.
    expect(await getProductImage(db, id, { includeInactive: false })).toBeUndefined();
    expect(await getProductImage(db, id, { includeInactive: true })).toEqual({
      key: "2026/11/otra.webp",
      type: "image/webp",
    });

    // "Quitar la imagen actual" clears the columns and hands back the key.
    const cleared = await updateProduct(
      db,
      id,
      { ...base, supplier_id: partner },
      { image: null, removeImage: true },
    );
    expect(cleared).toEqual({ ok: true, value: { id, replacedImageKey: "2026/11/otra.webp" } });
    expect(await getProductImage(db, id, { includeInactive: true })).toBeUndefined();
    const restored = await updateProduct(
      db,
      id,
      { ...base, supplier_id: partner },
      { image: { key: "2026/11/otra.webp", type: "image/webp" }, removeImage: false },
    );
    expect(restored.ok && restored.value.replacedImageKey).toBeNull();

    expect(await deleteProduct(db, id)).toEqual({
      ok: true,
      value: { imageKey: "2026/11/otra.webp" },
    });
    expect(await deleteProduct(db, id)).toMatchObject({ ok: false, code: "not_found" });
  });

  it("un SKU es de un solo producto (sin distinguir mayúsculas); editar conserva el propio", async () => {
    const base = productInput({ name: "Góndola refrigerada", sku: "GON-0180" });
    const first = await createProduct(db, base, null);
    expect(first.ok).toBe(true);
    const id = first.ok ? first.value.id : 0;
    const copy = await createProduct(db, { ...base, name: "Otra góndola", sku: "gon-0180" }, null);
    expect(copy).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { sku: ["El SKU «gon-0180» ya es de «Góndola refrigerada»."] },
    });
    const other = await createProduct(db, { ...base, name: "Otra góndola", sku: "GON-0181" }, null);
    expect(other.ok).toBe(true);
    const otherId = other.ok ? other.value.id : 0;
    const kept = await updateProduct(db, id, { ...base, stock_quantity: 4 }, noImage);
    expect(kept.ok).toBe(true);
    const taken = await updateProduct(db, otherId, { ...base, name: "Otra góndola" }, noImage);
    expect(taken).toMatchObject({ ok: false, fieldErrors: { sku: [expect.any(String)] } });
    expect(await deleteProduct(db, id)).toMatchObject({ ok: true });
    expect(await deleteProduct(db, otherId)).toMatchObject({ ok: true });
  });

  it("guardar desde una página vieja no deshace el cambio de otra pestaña", async () => {
    const base = productInput({
      name: "Compresor de aire",
      basePriceCents: 10_000,
      stock_quantity: 1,
    });
    const created = await createProduct(db, base, null);
    const id = created.ok ? created.value.id : 0;
    const shown = (await productDefaults(id, db))!.edited_from!;
    const first = await updateProduct(
      db,
      id,
      { ...base, basePriceCents: 77_700, editedFrom: shown },
      noImage,
    );
    expect(first.ok).toBe(true);
    const stale = await updateProduct(
      db,
      id,
      { ...base, name: "Compresor de aire 200 L", editedFrom: shown },
      noImage,
    );
    expect(stale).toMatchObject({ ok: false, code: "conflict" });
    const stored = await productDefaults(id, db);
    expect(stored).toMatchObject({ name: "Compresor de aire", base_price: "777.00" });
    // From the page as it is now, the save goes through.
    const fresh = await updateProduct(
      db,
      id,
      { ...base, basePriceCents: 77_700, name: "Compresor 200 L", editedFrom: stored!.edited_from },
      noImage,
    );
    expect(fresh.ok).toBe(true);
    expect(await deleteProduct(db, id)).toMatchObject({ ok: true });
  });

  it("las categorías no se repiten aunque cambien mayúsculas", async () => {
    const first = await createCategory(db, "Electricidad");
    expect(first.ok).toBe(true);
    expect(await createCategory(db, "ELECTRICIDAD")).toMatchObject({
      ok: false,
      message: DUPLICATE_CATEGORY_MESSAGE,
    });
    const other = await createCategory(db, "Plomería");
    expect(
      await renameCategory(db, { id: other.ok ? other.value.id : 0, name: "electricidad" }),
    ).toMatchObject({ ok: false, message: DUPLICATE_CATEGORY_MESSAGE });
  });
});

describe("formulario de configuración", () => {
  const valid = {
    sessionTimeoutMinutes: "60",
    maxLoginAttempts: "5",
    defaultCommission: "7,5",
    loyaltyPointsPerUnit: "1.5",
    minQuoteAmount: "150,50",
    quoteDays: "5",
    defaultTaxRate: "16,5",
    currency: "MXN",
  };

  it("convierte decimales con coma y el monto mínimo a centavos", () => {
    expect(settingsFormSchema.parse(valid)).toEqual({
      sessionTimeoutMinutes: 60,
      maxLoginAttempts: 5,
      defaultCommission: 7.5,
      loyaltyPointsPerUnit: 1.5,
      minQuoteAmountCents: 15_050,
      quoteDays: 5,
      defaultTaxRate: 16.5,
      currency: "MXN",
      paymentInstructions: "",
    });
    expect(
      settingsFormSchema.parse({ ...valid, paymentInstructions: "  Banco Ficticio\nCuenta 0  " })
        .paymentInstructions,
    ).toBe("Banco Ficticio\nCuenta 0");
  });

  it("rechaza valores fuera de rango con mensajes en español", () => {
    const result = settingsFormSchema.safeParse({
      ...valid,
      sessionTimeoutMinutes: "2",
      defaultCommission: "150",
      quoteDays: "0",
      currency: "XXX",
      paymentInstructions: "x".repeat(1001),
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toContain("El tiempo de sesión debe ser un número entero entre 5 y 43200.");
    expect(messages).toContain(
      "La comisión debe ser un número entre 0 y 100 (usa punto o coma para los decimales).",
    );
    expect(messages).toContain("Elige una moneda de la lista.");
    expect(messages).toContain("Los días para cotizar deben ser un número entero entre 1 y 60.");
    expect(messages).toContain("Las instrucciones de pago admiten hasta 1,000 caracteres.");
  });
});

describe("listas de opciones compactas", () => {
  it("empaqueta y desempaqueta id y nombre (tabuladores y saltos se vuelven espacios)", () => {
    const options = [
      { id: 7, name: "Aceros\tdel Norte" },
      { id: 12, name: "Línea\nDos" },
    ];
    expect(unpackOptions(packOptions(options))).toEqual([
      { id: 7, name: "Aceros del Norte" },
      { id: 12, name: "Línea Dos" },
    ]);
    expect(unpackOptions(packOptions([]))).toEqual([]);
  });
});

describe("asignar desde Socios", () => {
  it("ofrece al socio las solicitudes abiertas que aún no tiene, y a otro socio todas", async () => {
    const buyer = await user("buyer");
    const partner = await user("partner");
    const other = await user("partner");
    const theirs = await makeRequest(buyer, "assigned", "Ya asignada al socio");
    const open = await makeRequest(buyer, "pending", "Por asignar");
    await db
      .insertInto("partner_assignments")
      .values({ partner_id: partner, quote_request_id: theirs })
      .execute();
    const offeredTo = async (partnerId: number) =>
      (await listAssignableRequests(db, partnerId)).map((r) => r.id);
    expect(await offeredTo(partner)).toContain(open);
    expect(await offeredTo(partner)).not.toContain(theirs);
    expect(await offeredTo(other)).toEqual(expect.arrayContaining([open, theirs]));
  });
});

describe("búsqueda de productos del operador", () => {
  it("no distingue acentos ni mayúsculas, encuentra palabras a medias y el SKU, y sigue los cambios", async () => {
    const base = {
      description: null,
      category_id: null,
      supplier_id: null,
      basePriceCents: null,
      stock_quantity: 1,
      isActive: true,
    };
    const valve = await createProduct(
      db,
      { ...base, name: "Válvula de compuerta Ñandú", sku: "VAL-77" },
      null,
    );
    await createProduct(db, { ...base, name: "Bomba centrífuga 100%", sku: null }, null);
    const names = async (q: string) =>
      (await listProductsForAdmin(db, { q, page: 1 })).products.map((p) => p.name);
    expect(await names("valvula")).toEqual(["Válvula de compuerta Ñandú"]);
    expect(await names("VÁLV nandu")).toEqual(["Válvula de compuerta Ñandú"]);
    expect(await names("val-77")).toEqual(["Válvula de compuerta Ñandú"]);
    expect(await names("centrifuga")).toEqual(["Bomba centrífuga 100%"]);
    // LIKE's own wildcards are matched literally, as before.
    expect(await names("100%")).toEqual(["Bomba centrífuga 100%"]);
    expect(await names("10%")).toEqual([]);
    expect((await listProductsForAdmin(db, { q: "valvula", page: 1 })).total).toBe(1);

    expect(valve.ok).toBe(true);
    const id = valve.ok ? valve.value.id : 0;
    await updateProduct(
      db,
      id,
      { ...base, name: "Compuerta de acero", sku: "CMP-1" },
      { image: null, removeImage: false },
    );
    expect(await names("valvula")).toEqual([]);
    expect(await names("compuerta acero")).toEqual(["Compuerta de acero"]);
    await deleteProduct(db, id);
    expect(await names("compuerta")).toEqual([]);
  });
});
