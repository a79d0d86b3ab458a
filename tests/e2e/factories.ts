/**
 * Starting states written straight to the server's SQLite file (and uploads folder), so a test
 * begins where its subject begins instead of clicking through every earlier step. Each flow keeps
 * one journey through the real UI; the factories write what those steps would have stored.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Server, TestUser } from "./fixtures";
import { PDF } from "./files";

type RequestStatus = "pending" | "assigned" | "quoted" | "approved" | "paid" | "rejected";

export interface StoredFile {
  key: string;
  name: string;
  type: string;
  size: number;
}

/** Writes `buffer` into the uploads folder under a fresh key, as the storage service would. */
export function storeFile(
  server: Server,
  name: string,
  type = "application/pdf",
  buffer: Buffer = PDF,
): StoredFile {
  const key = `e2e/${crypto.randomBytes(8).toString("hex")}${path.extname(name)}`;
  fs.mkdirSync(path.join(server.uploadsDir, "e2e"), { recursive: true });
  fs.writeFileSync(path.join(server.uploadsDir, key), buffer);
  return { key, name, type, size: buffer.length };
}

const stamp = () => new Date().toISOString();

/**
 * A quote request of `buyer` in `status`, with a real requirements file, assigned to `partners`.
 * The status history lists the statuses a request passes through to get there.
 */
export function insertRequest(
  server: Server,
  {
    buyer,
    title,
    description = "Suministro de 500 metros de tubería de acero al carbono.",
    status = "pending",
    partners = [],
    fileName = "requisitos.pdf",
  }: {
    buyer: TestUser;
    title: string;
    description?: string;
    status?: RequestStatus;
    partners?: TestUser[];
    fileName?: string;
  },
): number {
  const file = storeFile(server, fileName);
  const at = stamp();
  const id = Number(
    server.sql
      .prepare(
        `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(buyer.id, title, description, file.name, file.type, file.key, file.size, status, at, at)
      .lastInsertRowid,
  );
  const flow: RequestStatus[] =
    status === "rejected"
      ? ["pending", "assigned", "quoted", "rejected"]
      : ["pending", "assigned", "quoted", "approved", "paid"];
  const history = flow.slice(0, flow.indexOf(status) + 1);
  const addHistory = server.sql.prepare(
    `INSERT INTO request_status_history (quote_request_id, from_status, to_status, created_at) VALUES (?, ?, ?, ?)`,
  );
  history.forEach((to, i) => addHistory.run(id, i === 0 ? null : history[i - 1], to, at));
  const assign = server.sql.prepare(
    `INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)`,
  );
  for (const partner of partners) assign.run(partner.id, id, at);
  return id;
}

/**
 * A partner's quote for an assigned request, optionally with a stored file, and their assignment
 * moved to `offered` (or `selected`) as the offer step leaves it.
 */
export function insertPartnerQuote(
  server: Server,
  {
    requestId,
    partner,
    amountCents,
    notes = null,
    fileName,
    selected = false,
  }: {
    requestId: number;
    partner: TestUser;
    amountCents: number;
    notes?: string | null;
    fileName?: string;
    selected?: boolean;
  },
): { id: number; file: StoredFile | null } {
  const file = fileName ? storeFile(server, fileName) : null;
  const at = stamp();
  const id = Number(
    server.sql
      .prepare(
        `INSERT INTO partner_quotes (quote_request_id, partner_id, quoted_amount_cents, notes, file_name, file_type, file_key, is_selected, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        requestId,
        partner.id,
        amountCents,
        notes,
        file?.name ?? null,
        file?.type ?? null,
        file?.key ?? null,
        selected ? 1 : 0,
        at,
        at,
      ).lastInsertRowid,
  );
  server.sql
    .prepare(
      "UPDATE partner_assignments SET state = ?, state_changed_at = ? WHERE quote_request_id = ? AND partner_id = ?",
    )
    .run(selected ? "selected" : "offered", at, requestId, partner.id);
  return { id, file };
}

/**
 * The official quote of a request (at the default 5 % commission) and, when the request is
 * already `approved`, its pending payment (with `payment`'s method and proof, if given).
 */
export function insertOfficialQuote(
  server: Server,
  {
    requestId,
    amountCents,
    partnerQuoteId = null,
    commissionPercentage = 5,
    payment = {},
  }: {
    requestId: number;
    amountCents: number;
    partnerQuoteId?: number | null;
    commissionPercentage?: number;
    payment?: Pick<PaymentInput, "method" | "proof">;
  },
): { officialQuoteId: number; paymentId: number | null } {
  const at = stamp();
  const commission = Math.floor((amountCents * commissionPercentage * 100 + 5_000) / 10_000);
  const officialQuoteId = Number(
    server.sql
      .prepare(
        `INSERT INTO official_quotes (quote_request_id, partner_quote_id, final_amount_cents, commission_percentage, commission_amount_cents, currency, valid_until, created_at)
         VALUES (?, ?, ?, ?, ?, 'USD', '2099-01-01', ?)`,
      )
      .run(requestId, partnerQuoteId, amountCents, commissionPercentage, commission, at)
      .lastInsertRowid,
  );
  server.sql
    .prepare("UPDATE quote_requests SET total_amount_cents = ? WHERE id = ?")
    .run(amountCents, requestId);
  // Every other offer is closed once an official quote exists.
  server.sql
    .prepare(
      "UPDATE partner_assignments SET state = 'not_selected' WHERE quote_request_id = ? AND state = 'offered'",
    )
    .run(requestId);
  const { status, buyer_id } = server.sql
    .prepare("SELECT status, buyer_id FROM quote_requests WHERE id = ?")
    .get(requestId) as { status: RequestStatus; buyer_id: number };
  const paymentId =
    status === "approved"
      ? insertPayment(server, {
          requestId,
          officialQuoteId,
          buyerId: buyer_id,
          amountCents,
          ...payment,
        })
      : null;
  return { officialQuoteId, paymentId };
}

interface PaymentInput {
  requestId: number;
  officialQuoteId: number;
  buyerId: number;
  amountCents: number;
  method?: "transfer" | "check" | "cash" | "other" | null;
  proof?: { name: string; type: string; buffer: Buffer };
}

/** A payment row; with `proof`, as the buyer's upload of a proof leaves it. */
function insertPayment(
  server: Server,
  { requestId, officialQuoteId, buyerId, amountCents, method = null, proof }: PaymentInput,
): number {
  const file = proof ? storeFile(server, proof.name, proof.type, proof.buffer) : null;
  const at = stamp();
  return Number(
    server.sql
      .prepare(
        `INSERT INTO payments (quote_request_id, official_quote_id, buyer_id, amount_cents, method, proof_key, proof_name, proof_type, status, submitted_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .run(
        requestId,
        officialQuoteId,
        buyerId,
        amountCents,
        method,
        file?.key ?? null,
        file?.name ?? null,
        file?.type ?? null,
        file ? at : null,
        at,
        at,
      ).lastInsertRowid,
  );
}

/** Loyalty points credited to a buyer outside any payment. */
export function grantPoints(server: Server, buyer: TestUser, points: number): void {
  server.sql
    .prepare(
      "INSERT INTO loyalty_ledger (buyer_id, points, reason, description, created_at) VALUES (?, ?, 'adjustment', 'Ajuste de prueba', ?)",
    )
    .run(buyer.id, points, stamp());
}

/**
 * A redemption of the reward that costs `points`, as a confirmed redemption leaves it: the row and
 * the points spent from the ledger (the buyer should hold them, see grantPoints). Pending, or
 * delivered by the operator `deliveredBy`.
 */
export function insertRedemption(
  server: Server,
  buyer: TestUser,
  points = 500,
  { deliveredBy }: { deliveredBy?: TestUser } = {},
): number {
  const reward = server.sql
    .prepare("SELECT id, name FROM rewards WHERE points_cost = ?")
    .get(points) as { id: number; name: string } | undefined;
  if (!reward) throw new Error(`No hay recompensa de ${points} puntos`);
  const at = stamp();
  const id = Number(
    server.sql
      .prepare(
        `INSERT INTO reward_redemptions (buyer_id, reward_id, points, created_at, status, delivered_at, delivered_by)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        buyer.id,
        reward.id,
        points,
        at,
        deliveredBy ? "delivered" : "pending",
        deliveredBy ? at : null,
        deliveredBy?.id ?? null,
      ).lastInsertRowid,
  );
  server.sql
    .prepare(
      "INSERT INTO loyalty_ledger (buyer_id, points, reason, redemption_id, description, created_at) VALUES (?, ?, 'redemption', ?, ?, ?)",
    )
    .run(buyer.id, -points, id, `Canje: ${reward.name}`, at);
  return id;
}
