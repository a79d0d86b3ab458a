/**
 * Demo data for a first look: the accounts of the README, a small catalogue and a story in which
 * every screen has something to show (scripts/demo-story.ts). Idempotent: an account or the catalogue
 * is created only when missing, and the story only while the demo buyer has no request.
 */
import { getSettings, saveSettings } from "../app/services/settings.server";
import type { Role } from "../db/schema";
import type { DB } from "../app/services/db.server";
import { now } from "../app/services/db.server";
import { hashPassword } from "../app/services/crypto.server";
import { createUser, getUserById, type PublicUser } from "../app/models/user.server";
import { writeDemoStory, type DemoCast } from "./demo-story";

export const DEMO_PASSWORD = "Demo1234!";

interface DemoAccount {
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  companyName: string;
}

/** Every demo account (all with DEMO_PASSWORD), by its part in the story. */
export const DEMO_ACCOUNTS = {
  admin: {
    email: "admin@demo.cotizahub.test",
    role: "admin",
    firstName: "Ana",
    lastName: "Administradora",
    companyName: "CotizaHub",
  },
  buyer: {
    email: "comprador@demo.cotizahub.test",
    role: "buyer",
    firstName: "Carlos",
    lastName: "Comprador",
    companyName: "Petrolera Demo S.A.",
  },
  partner: {
    email: "socio@demo.cotizahub.test",
    role: "partner",
    firstName: "Sofía",
    lastName: "Socia",
    companyName: "Suministros Industriales Demo",
  },
  partner2: {
    email: "socio2@demo.cotizahub.test",
    role: "partner",
    firstName: "Pablo",
    lastName: "Proveedor",
    companyName: "Suministros Ficticios del Norte",
  },
  government: {
    email: "gobierno@demo.cotizahub.test",
    role: "buyer",
    firstName: "Marta",
    lastName: "Municipal",
    companyName: "Municipio Ficticio de Villa Ejemplo",
  },
  dealer: {
    email: "concesionario@demo.cotizahub.test",
    role: "buyer",
    firstName: "Diego",
    lastName: "Distribuidor",
    companyName: "Autos Imaginarios del Valle",
  },
  supermarket: {
    email: "supermercado@demo.cotizahub.test",
    role: "buyer",
    firstName: "Susana",
    lastName: "Surtido",
    companyName: "Supermercados La Canasta Ficticia",
  },
} satisfies Record<keyof DemoCast, DemoAccount>;

export interface DemoSeedReport {
  accountsCreated: number;
  catalogueCreated: boolean;
  storyCreated: boolean;
}

async function ensureAccounts(database: DB): Promise<{ cast: DemoCast; created: number }> {
  let passwordHash: string | null = null;
  let created = 0;
  const cast: Partial<DemoCast> = {};
  for (const [part, account] of Object.entries(DEMO_ACCOUNTS) as [keyof DemoCast, DemoAccount][]) {
    const found = await database
      .selectFrom("users")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirst();
    let user: PublicUser | undefined = found && (await getUserById(database, found.id));
    if (!user) {
      passwordHash ??= await hashPassword(DEMO_PASSWORD);
      user = await createUser(database, {
        ...account,
        passwordHash,
        verified: true,
        phone: "+52 55 0000 0000",
      });
      if (account.role === "partner") {
        await database
          .updateTable("users")
          .set({ is_featured_partner: 1 })
          .where("id", "=", user.id)
          .execute();
      }
      created++;
    }
    if (user.role !== account.role)
      throw new Error(
        `La cuenta de demostración ${account.email} no tiene el rol ${account.role}.`,
      );
    cast[part] = user;
  }
  return { cast: cast as DemoCast, created };
}

/** Categories and products (some supplied by the demo partners), once. */
async function ensureCatalogue(database: DB, cast: DemoCast): Promise<boolean> {
  const existing = await database
    .selectFrom("products")
    .select("id")
    .where("sku", "=", "VAL-0400")
    .executeTakeFirst();
  if (existing) return false;
  const categoryIds: Record<string, number> = {};
  for (const name of [
    "Industrial",
    "Vehículos y flotas",
    "Oficina y tecnología",
    "Alimentos y consumo",
  ]) {
    const found = await database
      .selectFrom("categories")
      .select("id")
      .where("name", "=", name)
      .executeTakeFirst();
    categoryIds[name] =
      found?.id ??
      (
        await database
          .insertInto("categories")
          .values({ name })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
  }
  const { partner, partner2 } = cast;
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
    await database
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
  return true;
}

export async function seedDemo(database: DB): Promise<DemoSeedReport> {
  const { cast, created } = await ensureAccounts(database);
  const catalogueCreated = await ensureCatalogue(database, cast);
  const told = await database
    .selectFrom("quote_requests")
    .select("id")
    .where("buyer_id", "=", cast.buyer.id)
    .executeTakeFirst();
  if (!told) await writeDemoStory(database, cast);
  await ensurePaymentInstructions(database);
  return { accountsCreated: created, catalogueCreated, storyCreated: !told };
}

/** Obviously fictitious bank details, so the buyer's payment pages read as they would live. */
const DEMO_PAYMENT_INSTRUCTIONS = [
  "Transferencia bancaria a Banco Ficticio S.A.",
  "Beneficiario: CotizaHub Demo S.A. de C.V.",
  "Cuenta: 0000 0000 0000 0000 (datos de demostración)",
  "Envía el comprobante desde tu solicitud en CotizaHub («Pagar») el mismo día del pago.",
].join("\n");

/** Sets the demo instructions unless an operator already wrote their own. */
async function ensurePaymentInstructions(database: DB) {
  const settings = await getSettings(database);
  if (settings.paymentInstructions) return;
  await saveSettings(database, { ...settings, paymentInstructions: DEMO_PAYMENT_INSTRUCTIONS });
}
