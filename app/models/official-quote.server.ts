import { commissionCents, formatMoney } from "~/domain/money";
import {
  addDays,
  isExpired,
  OFFICIAL_VALIDITY_DAYS,
  utcDay,
  type OfferTerms,
} from "~/domain/offer";
import { revisionBlockedByPayments } from "~/domain/payments";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import { buyerLabel } from "./user.server";
import { now, type DB } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { formatDate } from "~/utils/format";
import { insertOfficialQuoteItems, officialQuoteItems } from "./quote-items.server";
import { notifyAbout, recordEvent, requestStep } from "./request-step.server";

/**
 * Official quotes and their versions (DECISIONS §7). A request has at most one current official
 * quote (superseded_at IS NULL, a partial unique index); a revision or a renewal supersedes it with
 * version n+1. Only the current version can be approved or paid, and not after its validity.
 */

/** An official quote version's terms: an offer's, with a validity that is always set. */
export type OfficialTerms = OfferTerms & { validUntil: string };

const belowMinimum = (settings: { minQuoteAmountCents: number; currency: string }) =>
  fail(
    "invalid",
    `El monto mínimo de cotización es ${formatMoney(settings.minQuoteAmountCents, settings.currency)} (sin impuestos).`,
    "amount",
  );

/** The minimum quote amount applies to the subtotal: what the goods cost before tax. */
export function checkMinimum(
  offer: { subtotalCents: number },
  settings: { minQuoteAmountCents: number; currency: string },
): Failure | null {
  return offer.subtotalCents < settings.minQuoteAmountCents || offer.subtotalCents <= 0
    ? belowMinimum(settings)
    : null;
}

export const expiredMessage = (validUntil: string) =>
  `La cotización oficial venció el ${formatDate(validUntil)}. Solicita su renovación para poder aprobarla o pagarla.`;

/** The request's current official quote, as the approval and payment steps check it. */
export function currentOfficialQuote(tx: DB, requestId: number) {
  return tx
    .selectFrom("official_quotes")
    .select([
      "id",
      "version",
      "final_amount_cents",
      "currency",
      "valid_until",
      "renewal_requested_at",
    ])
    .where("quote_request_id", "=", requestId)
    .where("superseded_at", "is", null)
    .executeTakeFirst();
}

/** Refuses approving or paying a current official quote past its validity (or with none). */
export async function refuseIfExpired(tx: DB, requestId: number): Promise<Failure | null> {
  const current = await currentOfficialQuote(tx, requestId);
  if (!current) return fail("conflict", "Esta solicitud no tiene cotización oficial.");
  return isExpired(current.valid_until, utcDay())
    ? fail("locked", expiredMessage(current.valid_until))
    : null;
}

/**
 * Writes a new current version: version = the request's last + 1, commission on the subtotal,
 * lines copied, and the request's total kept equal to the version's total. The caller has
 * superseded the previous version (if any) in the same transaction.
 */
export async function insertOfficialQuote(
  tx: DB,
  requestId: number,
  {
    terms,
    partnerQuoteId,
    adminId,
    reason = null,
  }: {
    terms: OfficialTerms;
    partnerQuoteId: number | null;
    adminId: number;
    reason?: string | null;
  },
): Promise<{ id: number; version: number }> {
  const settings = await getSettings(tx);
  const last = await tx
    .selectFrom("official_quotes")
    .select((eb) => eb.fn.max("version").as("version"))
    .where("quote_request_id", "=", requestId)
    .executeTakeFirst();
  const version = (last?.version ?? 0) + 1;
  const { id } = await tx
    .insertInto("official_quotes")
    .values({
      quote_request_id: requestId,
      partner_quote_id: partnerQuoteId,
      version,
      final_amount_cents: terms.totalCents,
      subtotal_cents: terms.subtotalCents,
      tax_rate: terms.taxRate,
      tax_cents: terms.taxCents,
      lead_time_days: terms.leadTimeDays,
      payment_terms: terms.paymentTerms,
      commission_percentage: settings.defaultCommission,
      commission_amount_cents: commissionCents(terms.subtotalCents, settings.defaultCommission),
      currency: settings.currency,
      valid_until: terms.validUntil,
      revision_reason: reason,
      created_by: adminId,
      created_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await insertOfficialQuoteItems(tx, id, terms.lines);
  await tx
    .updateTable("quote_requests")
    .set({ total_amount_cents: terms.totalCents })
    .where("id", "=", requestId)
    .execute();
  return { id, version };
}

/**
 * The operator issues version n+1 of the current official quote (a revision, or the renewal the
 * buyer asked for): only while quoted or approved, unpaid, and with no payment proof waiting for
 * review. A pending payment without a proof follows the new version's total.
 */
export async function reviseOfficialQuote(
  database: DB,
  {
    requestId,
    adminId,
    reason,
    terms,
  }: { requestId: number; adminId: number; reason: string; terms: OfficialTerms },
): Promise<Result<{ officialQuoteId: number; version: number }>> {
  const settings = await getSettings(database);
  const tooLow = checkMinimum(terms, settings);
  if (tooLow) return tooLow;
  // As the first version: at most OFFICIAL_VALIDITY_DAYS from today (DECISIONS §7).
  const latest = addDays(utcDay(), OFFICIAL_VALIDITY_DAYS);
  if (terms.validUntil > latest)
    return fail(
      "invalid",
      `Una versión vale como máximo ${OFFICIAL_VALIDITY_DAYS} días: elige una fecha hasta el ${formatDate(latest)}.`,
      "valid_until",
    );
  const action = "revise_official_quote";
  return requestStep(database, { requestId, action }, async (tx, request) => {
    const current = await currentOfficialQuote(tx, requestId);
    if (!current) return fail("conflict", "Esta solicitud no tiene cotización oficial.");
    const payments = await tx
      .selectFrom("payments")
      .select(["id", "status", "submitted_at"])
      .where("quote_request_id", "=", requestId)
      .where("status", "in", ["pending", "confirmed"])
      .execute();
    const blocked = revisionBlockedByPayments(payments);
    if (blocked) return fail(blocked.code, blocked.message);
    const timestamp = now();
    await tx
      .updateTable("official_quotes")
      .set({ superseded_at: timestamp })
      .where("id", "=", current.id)
      .execute();
    const next = await insertOfficialQuote(tx, requestId, {
      terms,
      partnerQuoteId: (
        await tx
          .selectFrom("official_quotes")
          .select("partner_quote_id")
          .where("id", "=", current.id)
          .executeTakeFirstOrThrow()
      ).partner_quote_id,
      adminId,
      reason,
    });
    // The buyer pays the latest version: a pending payment (no proof yet) moves to it.
    await tx
      .updateTable("payments")
      .set({ official_quote_id: next.id, amount_cents: terms.totalCents, updated_at: timestamp })
      .where("quote_request_id", "=", requestId)
      .where("status", "=", "pending")
      .execute();
    await recordEvent(tx, request, adminId, "revised", `Versión ${next.version}: ${reason}`);
    await notifyAbout(
      tx,
      requestId,
      { buyer: request.buyer_id },
      {
        type: "info",
        title: "Nueva versión de tu cotización oficial",
        message: `Emitimos la versión ${next.version} de la cotización oficial de «${request.title}»: ${formatMoney(terms.totalCents, settings.currency)}, válida hasta el ${formatDate(terms.validUntil)}. Motivo: ${reason}`,
      },
    );
    return ok({ officialQuoteId: next.id, version: next.version });
  });
}

/**
 * The buyer asks for an expired official quote to be renewed: the operators are told once (a
 * second click changes nothing); the renewal itself is a new version (reviseOfficialQuote).
 */
export async function requestRenewal(
  database: DB,
  { requestId, buyerId }: { requestId: number; buyerId: number },
): Promise<Result<{ alreadyRequested: boolean }>> {
  const action = "request_renewal";
  return requestStep<{ alreadyRequested: boolean }>(
    database,
    { requestId, action, buyerId },
    async (tx, request) => {
      const current = await currentOfficialQuote(tx, requestId);
      if (!current) return fail("conflict", "Esta solicitud no tiene cotización oficial.");
      if (!isExpired(current.valid_until, utcDay()))
        return fail(
          "conflict",
          `La cotización oficial sigue vigente hasta el ${formatDate(current.valid_until)}.`,
        );
      if (current.renewal_requested_at) return ok({ alreadyRequested: true });
      await tx
        .updateTable("official_quotes")
        .set({ renewal_requested_at: now() })
        .where("id", "=", current.id)
        .execute();
      await recordEvent(tx, request, buyerId, "renewal_requested", null);
      await notifyAbout(tx, requestId, "admins", {
        type: "warning",
        title: "Renovación de cotización solicitada",
        message: `${await buyerLabel(tx, buyerId)} pide renovar la cotización oficial de «${request.title}», vencida el ${formatDate(current.valid_until)}. Emite una nueva versión.`,
      });
      return ok({ alreadyRequested: false });
    },
  );
}

/** Every version of a request's official quote, newest first, with its lines. */
export async function listOfficialQuoteVersions(database: DB, requestId: number) {
  const rows = await database
    .selectFrom("official_quotes")
    .select([
      "id",
      "version",
      "partner_quote_id",
      "final_amount_cents",
      "subtotal_cents",
      "tax_rate",
      "tax_cents",
      "lead_time_days",
      "payment_terms",
      "commission_percentage",
      "commission_amount_cents",
      "currency",
      "valid_until",
      "revision_reason",
      "renewal_requested_at",
      "superseded_at",
      "created_at",
    ])
    .where("quote_request_id", "=", requestId)
    .orderBy("version", "desc")
    .execute();
  const items = await officialQuoteItems(
    database,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, lines: items.get(row.id) ?? [] }));
}

export type OfficialQuoteVersion = Awaited<ReturnType<typeof listOfficialQuoteVersions>>[number];
