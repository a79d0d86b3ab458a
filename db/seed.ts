/**
 * `npm run db:seed`: demo data for a first look (idempotent: does nothing when the demo admin exists).
 * Accounts (all with the password Demo1234!):
 *   admin@demo.cotizahub.test      administrator
 *   comprador@demo.cotizahub.test  buyer
 *   socio@demo.cotizahub.test      partner (featured)
 */
import { migrateToLatest } from "./migrate";
import { db, now } from "../app/services/db.server";
import { hashPassword } from "../app/services/crypto.server";
import { createUser, emailExists } from "../app/models/user.server";
import type { Role } from "./schema";

const DEMO_PASSWORD = "Demo1234!";

await migrateToLatest(db as never);

if (await emailExists(db, "admin@demo.cotizahub.test")) {
  console.log("Datos de demostración ya presentes.");
  await db.destroy();
  process.exit(0);
}

const passwordHash = await hashPassword(DEMO_PASSWORD);
const account = (
  email: string,
  role: Role,
  firstName: string,
  lastName: string,
  companyName: string,
) =>
  createUser(db, {
    email,
    passwordHash,
    role,
    firstName,
    lastName,
    companyName,
    verified: true,
    phone: "+52 55 0000 0000",
  });

await account("admin@demo.cotizahub.test", "admin", "Ana", "Administradora", "CotizaHub");
await account(
  "comprador@demo.cotizahub.test",
  "buyer",
  "Carlos",
  "Comprador",
  "Petrolera Demo S.A.",
);
const partner = await account(
  "socio@demo.cotizahub.test",
  "partner",
  "Sofía",
  "Socia",
  "Suministros Industriales Demo",
);
const partner2 = await account(
  "socio2@demo.cotizahub.test",
  "partner",
  "Pablo",
  "Proveedor",
  "Flotas y Repuestos Demo",
);
await db
  .updateTable("users")
  .set({ is_featured_partner: 1 })
  .where("id", "in", [partner.id, partner2.id])
  .execute();

const categoryIds: Record<string, number> = {};
for (const name of [
  "Industrial",
  "Vehículos y flotas",
  "Oficina y tecnología",
  "Alimentos y consumo",
]) {
  const { id } = await db
    .insertInto("categories")
    .values({ name })
    .returning("id")
    .executeTakeFirstOrThrow();
  categoryIds[name] = id;
}

const timestamp = now();
const products: [string, string, string, number, number, number][] = [
  ['Válvula de compuerta 4"', "VAL-0400", "Industrial", 48_500, 120, partner.id],
  ["Tubería de acero al carbono", "TUB-1020", "Industrial", 129_900, 800, partner.id],
  ["Equipo de protección personal", "EPP-0001", "Industrial", 8_990, 2_000, partner.id],
  ["Camioneta de reparto 3.5 t", "VEH-3500", "Vehículos y flotas", 3_450_000, 6, partner2.id],
  ["Juego de neumáticos para flota", "NEU-2255", "Vehículos y flotas", 62_000, 240, partner2.id],
  ['Portátil empresarial 14"', "TEC-1400", "Oficina y tecnología", 95_000, 60, partner.id],
  ["Góndola para supermercado", "GON-0180", "Alimentos y consumo", 41_000, 45, partner2.id],
];
for (const [name, sku, category, price, stock, supplier] of products) {
  await db
    .insertInto("products")
    .values({
      name,
      sku,
      description: `${name} con garantía del proveedor y entrega a todo el país.`,
      category_id: categoryIds[category]!,
      supplier_id: supplier,
      base_price_cents: price,
      stock_quantity: stock,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .execute();
}

console.log("Datos de demostración creados. Contraseña de las cuentas demo: " + DEMO_PASSWORD);
await db.destroy();
