import type { PublicUser } from "./user.server";
import { renderOfficialQuotePdf, renderPaymentReceiptPdf } from "~/services/pdf.server";
import { now, type DB } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { receiptNumber } from "~/domain/payments";
import { fail, ok } from "~/domain/result";
import { stageBytes, storedFileExists, storeUpload } from "~/services/storage.server";
import { officialQuoteItems } from "./quote-items.server";

/**
 * Who may read which file. Each function returns the file only when `user` may see it, otherwise
 * undefined (the route answers with a 404, never with the file).
 */

/** A conversation message's attachment: the thread's participants only (DECISIONS §8). */
export { messageFileFor } from "./thread.server";

interface StoredFileRef {
  key: string;
  name: string;
  type: string;
}

export async function requestFileFor(
  database: DB,
  user: PublicUser,
  requestId: number,
): Promise<StoredFileRef | undefined> {
  let query = database
    .selectFrom("quote_requests as qr")
    .select(["qr.file_key as key", "qr.file_name as name", "qr.file_type as type"])
    .where("qr.id", "=", requestId);
  if (user.role === "buyer") query = query.where("qr.buyer_id", "=", user.id);
  else if (user.role === "partner") {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("partner_assignments as pa")
          .select("pa.id")
          .whereRef("pa.quote_request_id", "=", "qr.id")
          .where("pa.partner_id", "=", user.id)
          // Declined and withdrawn partners no longer see the request (DECISIONS §6).
          .where("pa.state", "not in", ["declined", "withdrawn"]),
      ),
    );
  }
  return query.executeTakeFirst();
}

export async function partnerQuoteFileFor(
  database: DB,
  user: PublicUser,
  partnerQuoteId: number,
): Promise<StoredFileRef | undefined> {
  if (user.role === "buyer") return undefined;
  let query = database
    .selectFrom("partner_quotes")
    .select(["file_key", "file_name", "file_type"])
    .where("id", "=", partnerQuoteId)
    .where("file_key", "is not", null);
  if (user.role === "partner") query = query.where("partner_id", "=", user.id);
  const row = await query.executeTakeFirst();
  return row?.file_key
    ? { key: row.file_key, name: row.file_name ?? "cotizacion", type: row.file_type ?? "" }
    : undefined;
}

export async function paymentProofFor(
  database: DB,
  user: PublicUser,
  paymentId: number,
): Promise<StoredFileRef | undefined> {
  if (user.role === "partner") return undefined;
  let query = database
    .selectFrom("payments")
    .select(["proof_key", "proof_name", "proof_type"])
    .where("id", "=", paymentId)
    .where("proof_key", "is not", null);
  if (user.role === "buyer") query = query.where("buyer_id", "=", user.id);
  const row = await query.executeTakeFirst();
  return row?.proof_key
    ? { key: row.proof_key, name: row.proof_name ?? "comprobante", type: row.proof_type ?? "" }
    : undefined;
}

/**
 * The official quote PDF of a request's current version, for its buyer and for admins (older
 * versions: officialQuoteVersionPdfFor). Generated on first download and kept.
 */
export async function officialQuotePdfFor(
  database: DB,
  user: PublicUser,
  requestId: number,
): Promise<StoredFileRef | undefined> {
  return officialQuotePdf(database, user, (query) =>
    query.where("oq.quote_request_id", "=", requestId).where("oq.superseded_at", "is", null),
  );
}

/**
 * The PDF of one official quote version (any, current or superseded: DECISIONS §7 keeps older
 * versions readable), by `official_quotes.id`, for the request's buyer and for admins.
 */
export async function officialQuoteVersionPdfFor(
  database: DB,
  user: PublicUser,
  officialQuoteId: number,
): Promise<StoredFileRef | undefined> {
  return officialQuotePdf(database, user, (query) => query.where("oq.id", "=", officialQuoteId));
}

function officialQuoteRows(database: DB) {
  return database
    .selectFrom("official_quotes as oq")
    .innerJoin("quote_requests as qr", "qr.id", "oq.quote_request_id")
    .innerJoin("users as b", "b.id", "qr.buyer_id")
    .select([
      "oq.id",
      "oq.version",
      "oq.pdf_key",
      "oq.final_amount_cents",
      "oq.subtotal_cents",
      "oq.tax_rate",
      "oq.tax_cents",
      "oq.commission_percentage",
      "oq.commission_amount_cents",
      "oq.lead_time_days",
      "oq.payment_terms",
      "oq.revision_reason",
      "oq.currency",
      "oq.valid_until",
      "oq.created_at",
      "qr.id as request_id",
      "qr.title",
      "qr.description",
      "b.first_name",
      "b.last_name",
      "b.company_name",
      "b.email",
    ]);
}

/**
 * One official quote version's PDF, kept under that version's `pdf_key`: a version never changes
 * once issued (a change is a new version), so its kept copy stays right. Two first downloads at
 * once keep the first key recorded (as for receipts).
 */
async function officialQuotePdf(
  database: DB,
  user: PublicUser,
  which: (query: ReturnType<typeof officialQuoteRows>) => ReturnType<typeof officialQuoteRows>,
): Promise<StoredFileRef | undefined> {
  if (user.role === "partner") return undefined;
  let query = which(officialQuoteRows(database));
  if (user.role === "buyer") query = query.where("qr.buyer_id", "=", user.id);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return keptPdf({
    key: row.pdf_key,
    name: `cotizacion-oficial-${row.request_id}-v${row.version}.pdf`,
    render: async () =>
      renderOfficialQuotePdf({
        version: row.version,
        requestId: row.request_id,
        requestTitle: row.title,
        requestDescription: row.description,
        buyerName: `${row.first_name} ${row.last_name}`,
        buyerCompany: row.company_name,
        buyerEmail: row.email,
        lines: (await officialQuoteItems(database, [row.id])).get(row.id) ?? [],
        subtotalCents: row.subtotal_cents,
        taxRate: row.tax_rate,
        taxCents: row.tax_cents,
        totalCents: row.final_amount_cents,
        commissionPercentage: row.commission_percentage,
        commissionAmountCents: row.commission_amount_cents,
        leadTimeDays: row.lead_time_days,
        paymentTerms: row.payment_terms,
        revisionReason: row.revision_reason,
        currency: row.currency,
        validUntil: row.valid_until,
        issuedAt: row.created_at ?? now(),
        paymentInstructions: (await getSettings(database)).paymentInstructions,
      }),
    record: async (key) => {
      const updated = await database
        .updateTable("official_quotes")
        .set({ pdf_key: key })
        .where("id", "=", row.id)
        .where((eb) =>
          row.pdf_key === null ? eb("pdf_key", "is", null) : eb("pdf_key", "=", row.pdf_key),
        )
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    stored: async () =>
      (
        await database
          .selectFrom("official_quotes")
          .select("pdf_key")
          .where("id", "=", row.id)
          .executeTakeFirst()
      )?.pdf_key ?? null,
  });
}

/**
 * The receipt PDF of a confirmed payment, for the payment's buyer and for admins; a payment not
 * confirmed has no receipt (not found). Generated on first download and kept under
 * `payments.receipt_key`. Two first downloads at once may both render, but only the first key is
 * stored (the update only fills the key it read); the other copy is deleted and the stored one served.
 */
export async function paymentReceiptFor(
  database: DB,
  user: PublicUser,
  paymentId: number,
): Promise<StoredFileRef | undefined> {
  if (user.role === "partner") return undefined;
  let query = database
    .selectFrom("payments as p")
    .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
    .innerJoin("official_quotes as oq", "oq.id", "p.official_quote_id")
    .innerJoin("users as b", "b.id", "p.buyer_id")
    .leftJoin("buyer_commissions as bc", "bc.payment_id", "p.id")
    .select([
      "p.id",
      "p.receipt_key",
      "p.amount_cents",
      "p.method",
      "p.submitted_at",
      "p.confirmed_at",
      "oq.version as official_quote_version",
      "oq.currency",
      "qr.id as request_id",
      "qr.title",
      "b.first_name",
      "b.last_name",
      "b.company_name",
      "b.email",
      "bc.loyalty_points",
    ])
    .where("p.id", "=", paymentId)
    .where("p.status", "=", "confirmed");
  if (user.role === "buyer") query = query.where("p.buyer_id", "=", user.id);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return keptPdf({
    key: row.receipt_key,
    name: `recibo-${receiptNumber(row.id)}.pdf`,
    render: () =>
      renderPaymentReceiptPdf({
        paymentId: row.id,
        requestId: row.request_id,
        requestTitle: row.title,
        officialQuoteVersion: row.official_quote_version,
        buyerName: `${row.first_name} ${row.last_name}`,
        buyerCompany: row.company_name,
        buyerEmail: row.email,
        amountCents: row.amount_cents,
        currency: row.currency,
        method: row.method,
        submittedAt: row.submitted_at,
        confirmedAt: row.confirmed_at ?? now(),
        loyaltyPoints: row.loyalty_points ?? 0,
      }),
    // Only fills the key it read, so of two first downloads the first one's key is kept.
    record: async (key) => {
      const updated = await database
        .updateTable("payments")
        .set({ receipt_key: key })
        .where("id", "=", row.id)
        .where((eb) =>
          row.receipt_key === null
            ? eb("receipt_key", "is", null)
            : eb("receipt_key", "=", row.receipt_key),
        )
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    stored: async () =>
      (
        await database
          .selectFrom("payments")
          .select("receipt_key")
          .where("id", "=", row.id)
          .executeTakeFirst()
      )?.receipt_key ?? null,
  });
}

/**
 * A generated PDF kept under a row's key: the stored copy while its file exists; otherwise it is
 * rendered, stored and `record`ed on the row (a missing file is generated again, so no row points
 * to a missing file for long). When `record` declines (another copy was recorded first), the staged
 * copy is deleted and the row's current key, read by `stored`, is served.
 */
async function keptPdf({
  key,
  name,
  render,
  record,
  stored,
}: {
  key: string | null;
  name: string;
  render: () => Promise<Uint8Array>;
  record: (key: string) => Promise<boolean>;
  stored?: () => Promise<string | null>;
}): Promise<StoredFileRef | undefined> {
  const file = (fileKey: string) => ({ key: fileKey, name, type: "application/pdf" });
  if (key && (await storedFileExists(key))) return file(key);
  const saved = await storeUpload(
    await stageBytes(await render(), "pdf"),
    async (staged) =>
      (await record(staged!.key)) ? ok(staged!.key) : fail("conflict", "Otro PDF se guardó antes."),
    { replaced: () => key },
  );
  if (saved.ok) return file(saved.value);
  const current = await stored?.();
  return current ? file(current) : undefined;
}
