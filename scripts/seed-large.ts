/**
 * Fills a database with production-sized data for benchmarks: 10,000 users (1,000 partners),
 * 100,000 quote requests across every status, with assignments, partner quotes, official quotes,
 * payments and history. Usage: DATABASE_PATH=db/large.sqlite npm run seed:large
 * All names are obviously fake. Takes well under a minute.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { migrateToLatest } from "../db/migrate";
import { openDatabase } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { hashPassword } from "../app/services/crypto.server";
import { renderOfficialQuotePdf } from "../app/services/pdf.server";

const USERS = 10_000;
const PARTNERS = 1_000;
const REQUESTS = 100_000;
const STATUSES = ["pending", "assigned", "quoted", "approved", "paid", "rejected"] as const;
const WEIGHTS = [0.2, 0.25, 0.15, 0.1, 0.25, 0.05];

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
    officialQuoteId: 0,
    requestId: 0,
    requestTitle: "Documento de ejemplo",
    requestDescription: "Archivo de requerimientos de ejemplo para datos de prueba.",
    buyerName: "Comprador de Prueba",
    buyerCompany: null,
    buyerEmail: "comprador@example.test",
    finalAmountCents: 100,
    commissionPercentage: 5,
    commissionAmountCents: 5,
    currency: "USD",
    validUntil: new Date().toISOString(),
    issuedAt: new Date().toISOString(),
  }),
);

const passwordHash = await hashPassword("Demo1234!");
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
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
  `INSERT INTO payments (quote_request_id, official_quote_id, buyer_id, amount_cents, method, status, confirmed_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'transfer', ?, ?, ?, ?)`,
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
];

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
      isPartner ? "Socio" : "Comprador",
      `Prueba ${i}`,
      `${isPartner ? "Proveedora" : pick(SECTORS)} Ficticia ${i} S.A.`,
      role,
      created,
      created,
      created,
    );
    (isPartner ? partnerIds : buyerIds).push(Number(result.lastInsertRowid));
  }
  for (let i = 0; i < REQUESTS; i++) {
    let r = random();
    let s = 0;
    while (s < WEIGHTS.length - 1 && r > WEIGHTS[s]) r -= WEIGHTS[s++];
    const status = STATUSES[s];
    const buyerId = pick(buyerIds);
    const createdMs = start + (i / REQUESTS) * 720 * 24 * 3600 * 1000;
    const amount = 10_000 + Math.floor(random() * 5_000_000);
    const hasOfficial = ["quoted", "approved", "paid"].includes(status);
    const req = insertRequest.run(
      buyerId,
      `${pick(ITEMS)} lote ${i + 1}`,
      `Requerimiento de ${pick(ITEMS).toLowerCase()} para planta ${i % 97}.`,
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
    const partners = [pick(partnerIds), pick(partnerIds)];
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
    const payment = insertPayment.run(
      requestId,
      Number(official.lastInsertRowid),
      buyerId,
      amount,
      paid ? "confirmed" : "pending",
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
})();
sqlite.pragma("optimize");
sqlite.close();
console.log(
  `Listo en ${((Date.now() - started) / 1000).toFixed(1)} s: ${USERS} usuarios (${PARTNERS} socios), ${REQUESTS} solicitudes en ${env.databasePath}. Contraseña de todos: Demo1234! (admin: admin.bench@example.test)`,
);
