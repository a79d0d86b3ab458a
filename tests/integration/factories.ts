import type { RequestStatus, Role } from "../../db/schema";
import { buyerApproveQuote } from "~/models/quote-lifecycle.server";
import { db, now, type DB } from "~/services/db.server";

let counter = 0;

export async function makeUser(
  role: Role,
  extra: { companyName?: string } = {},
  database: DB = db,
) {
  counter += 1;
  const stamp = now();
  const { id } = await database
    .insertInto("users")
    .values({
      // "p<pid>", not "<pid>": a bare number in the e-mail would match numeric searches ("lote 12").
      email: `${role}${counter}.p${process.pid}@ejemplo.test`,
      password_hash: "x",
      first_name: role === "partner" ? "Pedro" : role === "admin" ? "Alicia" : "Beatriz",
      last_name: `Prueba${counter}`,
      company_name: extra.companyName ?? `Empresa ${counter}`,
      role,
      email_verified_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** A request row as the factories write it: a pending test request with a small PDF. */
export function requestRow(
  buyerId: number,
  { status = "pending", title = "Solicitud de prueba", createdAt = now() }: RequestRowOptions = {},
) {
  return {
    buyer_id: buyerId,
    title,
    description: "Descripción de prueba",
    file_name: "r.pdf",
    file_type: "application/pdf",
    file_key: `clave-${buyerId}-${Date.now()}-${counter++}.pdf`,
    file_size: 10,
    status,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

interface RequestRowOptions {
  status?: RequestStatus;
  title?: string;
  createdAt?: string;
}

export async function makeRequest(
  buyerId: number,
  status: RequestStatus = "pending",
  title = "Solicitud de prueba",
  database: DB = db,
) {
  const { id } = await database
    .insertInto("quote_requests")
    .values(requestRow(buyerId, { status, title }))
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** Everything a lifecycle step may touch, for one request (or for all when no id is given). */
export async function snapshot(requestId?: number) {
  const count = async (table: "official_quotes" | "request_status_history") => {
    let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"));
    if (requestId !== undefined) query = query.where("quote_request_id", "=", requestId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const buyerIds =
    requestId === undefined
      ? null
      : (
          await db
            .selectFrom("quote_requests")
            .select("buyer_id")
            .where("id", "=", requestId)
            .execute()
        ).map((r) => r.buyer_id);
  const byBuyer = async (table: "loyalty_ledger" | "buyer_commissions") => {
    let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"));
    if (buyerIds) query = query.where("buyer_id", "in", buyerIds.length ? buyerIds : [-1]);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  let requests = db
    .selectFrom("quote_requests")
    .select(["id", "status", "total_amount_cents", "quote_deadline", "cancellation_reason"])
    .orderBy("id");
  let payments = db
    .selectFrom("payments")
    .select(["id", "status", "amount_cents", "proof_key"])
    .orderBy("id");
  let partnerQuotes = db
    .selectFrom("partner_quotes")
    .select(["id", "quoted_amount_cents", "is_selected", "notes"])
    .orderBy("id");
  let assignments = db
    .selectFrom("partner_assignments")
    .select(["id", "partner_id", "state", "decline_reason"])
    .orderBy("id");
  if (requestId !== undefined) {
    assignments = assignments.where("quote_request_id", "=", requestId);
    requests = requests.where("id", "=", requestId);
    payments = payments.where("quote_request_id", "=", requestId);
    partnerQuotes = partnerQuotes.where("quote_request_id", "=", requestId);
  }
  return {
    requests: await requests.execute(),
    official: await count("official_quotes"),
    payments: await payments.execute(),
    partnerQuotes: await partnerQuotes.execute(),
    assignments: await assignments.execute(),
    ledger: await byBuyer("loyalty_ledger"),
    commissions: await byBuyer("buyer_commissions"),
    history: await count("request_status_history"),
  };
}

/** The version of a request's current official quote (what the buyer's page shows), or 0. */
export async function officialVersion(requestId: number): Promise<number> {
  const current = await db
    .selectFrom("official_quotes")
    .select("version")
    .where("quote_request_id", "=", requestId)
    .where("superseded_at", "is", null)
    .executeTakeFirst();
  return current?.version ?? 0;
}

/** The buyer approves the official quote their page shows now (its current version). */
export async function approveAsBuyer(requestId: number, buyerId: number) {
  return buyerApproveQuote(db, { requestId, buyerId, version: await officialVersion(requestId) });
}
