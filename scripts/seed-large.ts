/**
 * Fills a database with production-sized data for benchmarks: 10,000 users (1,000 partners),
 * 100,000 quote requests (or `--requests N`, e.g. 1000000) across every status, with assignments,
 * partner quotes, official quotes, payments, history, categories and products.
 * Usage: DATABASE_PATH=db/large.sqlite npm run seed:large [-- --requests 1000000]
 *
 * The data is shaped like a real marketplace, so benchmarks measure real users: a seeded 32-bit
 * generator (mulberry32: exact integer arithmetic, no overflow); buyers' and partners' shares drawn
 * from a log-normal distribution (a few busy accounts, a long tail, nobody empty by accident);
 * statuses drawn independently of the buyer. All names are obviously fake.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { migrateToLatest } from "../db/migrate";
import { env } from "../app/services/env.server";
import { hashPassword } from "../app/services/crypto.server";
import { renderOfficialQuotePdf } from "../app/services/pdf.server";

const USERS = 10_000;
const PARTNERS = 1_000;
const CATEGORIES = 24;
const PRODUCTS = 5_000;

function requestsOption(argv: string[]): number {
  const at = argv.indexOf("--requests");
  const value = at === -1 ? 100_000 : Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error("--requests necesita un número entero positivo (p. ej. --requests 1000000).");
    process.exit(1);
  }
  return value;
}
const REQUESTS = requestsOption(process.argv);
const STATUSES = ["pending", "assigned", "quoted", "approved", "paid", "rejected"] as const;
const WEIGHTS = [0.2, 0.25, 0.15, 0.1, 0.25, 0.05];

// Importing db.server opens (and creates) DATABASE_PATH: only once the arguments are valid.
const { openDatabase } = await import("../app/services/db.server");
const kysely = openDatabase(env.databasePath);
await migrateToLatest(kysely as never);
await kysely.destroy();

const sqlite = new Database(env.databasePath);
sqlite.pragma("journal_mode = WAL");
sqlite.pragma("foreign_keys = ON");
const existing = (sqlite.prepare("SELECT COUNT(*) AS n FROM quote_requests").get() as { n: number })
  .n;
if (existing >= REQUESTS) {
  console.log(`La base ${env.databasePath} ya tiene ${existing} solicitudes; nada que hacer.`);
  process.exit(0);
}

// One real file that every seeded request points to, so downloads work.
const sampleKey = "seed/requerimientos-ejemplo.pdf";
fs.mkdirSync(path.join(env.uploadsDir, "seed"), { recursive: true });
fs.writeFileSync(
  path.join(env.uploadsDir, sampleKey),
  await renderOfficialQuotePdf({
    version: 1,
    requestId: 0,
    requestTitle: "Documento de ejemplo",
    requestDescription: "Archivo de requerimientos de ejemplo para datos de prueba.",
    buyerName: "Comprador de Prueba",
    buyerCompany: null,
    buyerEmail: "comprador@example.test",
    lines: [],
    subtotalCents: 100,
    taxRate: 0,
    taxCents: 0,
    totalCents: 100,
    commissionPercentage: 5,
    commissionAmountCents: 5,
    leadTimeDays: null,
    paymentTerms: null,
    revisionReason: null,
    currency: "USD",
    validUntil: new Date().toISOString(),
    issuedAt: new Date().toISOString(),
    paymentInstructions: "",
  }),
);

const passwordHash = await hashPassword("Demo1234!");
/** mulberry32: a small, well-tested 32-bit generator; Math.imul keeps every step exact. */
function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** A standard normal draw (Box-Muller). */
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * Picks ids with log-normal weights (σ = 1.1): the busiest accounts have tens of times the median's
 * share, and every account still has a non-zero chance.
 */
function weightedPicker(ids: number[], sigma = 1.1) {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < ids.length; i++) {
    sum += Math.exp(sigma * normal());
    cumulative.push(sum);
  }
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return ids[low]!;
  };
}
const start = Date.now() - 730 * 24 * 3600 * 1000;
const at = (ms: number) => new Date(ms).toISOString();

const insertUser = sqlite.prepare(
  `INSERT INTO users (email, password_hash, first_name, last_name, company_name, role, email_verified_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertRequest = sqlite.prepare(
  `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, total_amount_cents, created_at, updated_at)
   VALUES (?, ?, ?, 'requerimientos.pdf', 'application/pdf', ?, 2048, ?, ?, ?, ?)`,
);
const insertHistory = sqlite.prepare(
  `INSERT INTO request_status_history (quote_request_id, actor_id, from_status, to_status, note, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
);
const insertAssignment = sqlite.prepare(
  `INSERT OR IGNORE INTO partner_assignments (partner_id, quote_request_id, assigned_by, assigned_at) VALUES (?, ?, ?, ?)`,
);
const insertPartnerQuote = sqlite.prepare(
  `INSERT OR IGNORE INTO partner_quotes (quote_request_id, partner_id, quoted_amount_cents, notes, is_selected, created_at, updated_at)
   VALUES (?, ?, ?, 'Incluye envío e instalación.', ?, ?, ?)`,
);
const insertOfficial = sqlite.prepare(
  `INSERT INTO official_quotes (quote_request_id, final_amount_cents, commission_percentage, commission_amount_cents, currency, valid_until, created_by, created_at)
   VALUES (?, ?, 5.0, ?, 'USD', ?, ?, ?)`,
);
const insertPayment = sqlite.prepare(
  `INSERT INTO payments (quote_request_id, official_quote_id, buyer_id, amount_cents, method, proof_key, proof_name, proof_type, status, rejection_reason, submitted_at, confirmed_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'transfer', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertCategory = sqlite.prepare(`INSERT INTO categories (name, created_at) VALUES (?, ?)`);
const insertProduct = sqlite.prepare(
  `INSERT INTO products (name, description, sku, category_id, supplier_id, base_price_cents, stock_quantity, is_active, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertCommission = sqlite.prepare(
  `INSERT INTO buyer_commissions (buyer_id, payment_id, commission_amount_cents, loyalty_points, created_at) VALUES (?, ?, ?, ?, ?)`,
);
const insertLedger = sqlite.prepare(
  `INSERT INTO loyalty_ledger (buyer_id, points, reason, payment_id, description, created_at) VALUES (?, ?, 'payment', ?, 'Pago confirmado', ?)`,
);

const SECTORS = ["Petrolera", "Gobierno", "Automotriz", "Supermercados", "Inversiones"];
const ITEMS = [
  "Tubería de acero",
  "Equipos de cómputo",
  "Uniformes",
  "Neumáticos",
  "Refrigeración",
  "Mobiliario",
  "Lubricantes",
  "Cámaras de seguridad",
  "Válvulas de compuerta",
  "Señalización vial",
  "Papelería",
  "Extintores",
  "Cableado eléctrico",
  "Guantes de nitrilo",
  "Bombas sumergibles",
  "Pintura epóxica",
];
const DETAILS = [
  "con entrega en almacén central",
  "según especificación adjunta",
  "para reposición trimestral",
  "con certificado de calidad",
  "para el proyecto de ampliación",
  "con garantía de un año",
  "incluye instalación y capacitación",
  "en presentación de caja",
];
const FIRST_NAMES = ["Lucía", "Martín", "Sofía", "Andrés", "Valentina", "José", "Camila", "Íñigo"];
const LAST_NAMES = ["García", "Pérez", "Muñoz", "Rodríguez", "Núñez", "López", "Peña", "Gómez"];

const started = Date.now();
sqlite.transaction(() => {
  const admin = insertUser.run(
    "admin.bench@example.test",
    passwordHash,
    "Admin",
    "Bench",
    "CotizaHub",
    "admin",
    at(start),
    at(start),
    at(start),
  );
  const adminId = Number(admin.lastInsertRowid);
  const partnerIds: number[] = [];
  const buyerIds: number[] = [];
  for (let i = 1; i < USERS; i++) {
    const isPartner = i <= PARTNERS;
    const role = isPartner ? "partner" : "buyer";
    const created = at(start + random() * 300 * 24 * 3600 * 1000);
    const result = insertUser.run(
      `${role}${i}@example.test`,
      passwordHash,
      pick(FIRST_NAMES),
      `${pick(LAST_NAMES)} Prueba ${i}`,
      `${isPartner ? "Proveedora" : pick(SECTORS)} Ficticia ${i} S.A.`,
      role,
      created,
      created,
      created,
    );
    (isPartner ? partnerIds : buyerIds).push(Number(result.lastInsertRowid));
  }
  const categoryIds: number[] = [];
  for (let c = 1; c <= CATEGORIES; c++) {
    categoryIds.push(
      Number(
        insertCategory.run(`${ITEMS[c % ITEMS.length]} · línea ${c}`, at(start)).lastInsertRowid,
      ),
    );
  }
  for (let p = 1; p <= PRODUCTS; p++) {
    const created = at(start + random() * 700 * 24 * 3600 * 1000);
    insertProduct.run(
      `${pick(ITEMS)} modelo ${p}`,
      `${pick(ITEMS)} ${pick(DETAILS)}.`,
      `SKU-${String(p).padStart(6, "0")}`,
      pick(categoryIds),
      pick(partnerIds),
      1_000 + Math.floor(random() * 2_000_000),
      Math.floor(random() * 500),
      random() < 0.9 ? 1 : 0,
      created,
      created,
    );
  }
  const pickBuyer = weightedPicker(buyerIds);
  const pickPartner = weightedPicker(partnerIds);
  for (let i = 0; i < REQUESTS; i++) {
    let r = random();
    let s = 0;
    while (s < WEIGHTS.length - 1 && r > WEIGHTS[s]!) r -= WEIGHTS[s++]!;
    const status = STATUSES[s]!;
    const buyerId = pickBuyer();
    const createdMs = start + (i / REQUESTS) * 720 * 24 * 3600 * 1000;
    const amount = 10_000 + Math.floor(random() * 5_000_000);
    const hasOfficial = ["quoted", "approved", "paid"].includes(status);
    const req = insertRequest.run(
      buyerId,
      `${pick(ITEMS)} lote ${i + 1}`,
      `Requerimiento de ${pick(ITEMS).toLowerCase()} ${pick(DETAILS)} para planta ${i % 97}.`,
      sampleKey,
      status,
      hasOfficial ? amount : null,
      at(createdMs),
      at(createdMs + 3600_000),
    );
    const requestId = Number(req.lastInsertRowid);
    insertHistory.run(requestId, buyerId, null, "pending", "Solicitud creada", at(createdMs));
    if (status === "pending") continue;
    insertHistory.run(requestId, adminId, "pending", status, null, at(createdMs + 3600_000));
    const first = pickPartner();
    let second = pickPartner();
    while (second === first) second = pickPartner();
    const partners = [first, second];
    for (const partnerId of partners)
      insertAssignment.run(partnerId, requestId, adminId, at(createdMs + 1800_000));
    if (status === "assigned" && random() < 0.5) continue;
    const quoteMs = createdMs + (6 + random() * 60) * 3600_000;
    insertPartnerQuote.run(
      requestId,
      partners[0],
      amount,
      hasOfficial ? 1 : 0,
      at(quoteMs),
      at(quoteMs),
    );
    if (!hasOfficial) continue;
    const commission = Math.round(amount * 0.05);
    const official = insertOfficial.run(
      requestId,
      amount,
      commission,
      at(quoteMs + 30 * 24 * 3600_000).slice(0, 10),
      adminId,
      at(quoteMs + 3600_000),
    );
    if (status === "quoted") continue;
    const paid = status === "paid";
    // Approved requests: two in three buyers already sent their proof (waiting for review).
    const withProof = paid || random() < 0.66;
    const payment = insertPayment.run(
      requestId,
      Number(official.lastInsertRowid),
      buyerId,
      amount,
      withProof ? sampleKey : null,
      withProof ? "comprobante.pdf" : null,
      withProof ? "application/pdf" : null,
      paid ? "confirmed" : "pending",
      null,
      withProof ? at(quoteMs + 30 * 3600_000) : null,
      paid ? at(quoteMs + 48 * 3600_000) : null,
      at(quoteMs + 24 * 3600_000),
      at(quoteMs + 48 * 3600_000),
    );
    if (paid) {
      const paymentId = Number(payment.lastInsertRowid);
      const points = Math.floor(amount / 100);
      insertCommission.run(buyerId, paymentId, commission, points, at(quoteMs + 48 * 3600_000));
      insertLedger.run(buyerId, points, paymentId, at(quoteMs + 48 * 3600_000));
    }
  }
  // The sourcing round as the models would have left it: offers closed once an official quote
  // exists, deadlines three days after each request (the open ones spread from overdue to a week
  // ahead, so the desk's deadline filters have something to find).
  sqlite.exec(`UPDATE partner_assignments SET state = CASE
      WHEN pq.is_selected = 1 THEN 'selected'
      WHEN EXISTS (SELECT 1 FROM official_quotes oq WHERE oq.quote_request_id = partner_assignments.quote_request_id)
        THEN 'not_selected'
      ELSE 'offered' END
    FROM partner_quotes AS pq
    WHERE pq.quote_request_id = partner_assignments.quote_request_id
      AND pq.partner_id = partner_assignments.partner_id`);
  sqlite.exec(`UPDATE quote_requests SET quote_deadline = CASE
      WHEN status IN ('pending','assigned')
        THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ((id % 240) - 48) || ' hours')
      ELSE strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+3 days') END`);
})();
sqlite.pragma("optimize");
sqlite.close();
console.log(
  `Listo en ${((Date.now() - started) / 1000).toFixed(1)} s: ${USERS} usuarios (${PARTNERS} socios), ${REQUESTS} solicitudes, ${CATEGORIES} categorías y ${PRODUCTS} productos en ${env.databasePath}. Contraseña de todos: Demo1234! (admin: admin.bench@example.test)`,
);
