import type { RequestStatus } from "../../db/schema";
import { formatMoney } from "~/domain/money";
import { canAdminOverride, STATUS_LABELS } from "~/domain/quote-status";
import { now, type DB } from "~/services/db.server";
import { claimFormToken } from "~/services/form-token.server";
import { getSettings } from "~/services/settings.server";
import { offerRefusal, offerRefusalMessage } from "~/domain/assignment";
import { defaultDeadline, requestDatesProblems } from "~/domain/request-dates";
import { fail, ok, type Result } from "~/domain/result";
import {
  isExpired,
  officialValidity,
  singleAmountOffer,
  utcDay,
  type OfferTerms,
} from "~/domain/offer";
import { buyerLabel, partnerName } from "./user.server";
import { offerItems, replaceOfferItems } from "./quote-items.server";
import {
  checkMinimum,
  currentOfficialQuote,
  insertOfficialQuote,
  refuseIfExpired,
  type OfficialTerms,
} from "./official-quote.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { scheduleDeadlineReminders } from "./deadline-reminder.server";
import {
  lifecycleStep,
  lockRequest,
  notFound,
  notifyAbout,
  notifyPartners,
  recordEvent,
  recordStatus,
  requestStep,
  voidPendingPayments,
  wrongStatus,
  type LockedRequest,
} from "./request-step.server";

/**
 * Every status change of a quote request. Each function runs in one IMMEDIATE transaction and
 * re-reads the request inside it, so a double submit or two admins racing cannot both win.
 */

// ---- Buyer creates a request

interface NewRequestInput {
  buyerId: number;
  title: string;
  description: string | null;
  file: { key: string; name: string; type: string; size: number };
  /** Until when partners may offer (an ISO instant); none: now + «días para cotizar». */
  quoteDeadline?: string | null;
  /** The day the buyer needs the goods by ("2026-12-15"), if they said. */
  neededBy?: string | null;
  /** The form's one-time token: a repeated submit stores nothing (FormTokenAlreadyUsed). */
  formToken?: string | null;
}

/**
 * The buyer's new request. The deadline must be in the future and at most MAX_DEADLINE_DAYS away;
 * the needed-by day not before today nor before the deadline's day (field errors otherwise).
 */
export async function createQuoteRequest(
  database: DB,
  input: NewRequestInput,
): Promise<Result<{ id: number }>> {
  return lifecycleStep(database, async (tx) => {
    const timestamp = now();
    const { quoteDays } = await getSettings(tx);
    const quoteDeadline = input.quoteDeadline ?? defaultDeadline(quoteDays, new Date(timestamp));
    const neededBy = input.neededBy ?? null;
    const problems = requestDatesProblems({ quoteDeadline, neededBy }, new Date(timestamp));
    if (problems) return fail("invalid", Object.values(problems)[0]![0]!, problems);
    const { id } = await tx
      .insertInto("quote_requests")
      .values({
        buyer_id: input.buyerId,
        title: input.title,
        description: input.description,
        file_name: input.file.name,
        file_type: input.file.type,
        file_key: input.file.key,
        file_size: input.file.size,
        status: "pending",
        quote_deadline: quoteDeadline,
        needed_by: neededBy,
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await claimFormToken(tx, input.formToken ?? null, paths.buyer.quote(id));
    await recordStatus(tx, id, null, "pending", input.buyerId, "Solicitud creada");
    await notifyAbout(tx, id, "admins", {
      type: "info",
      title: "Nueva solicitud de cotización",
      message: `${await buyerLabel(tx, input.buyerId)} creó la solicitud «${input.title}». Revísala y asígnala a socios.`,
    });
    await notifyAbout(
      tx,
      id,
      { buyer: input.buyerId },
      {
        type: "success",
        title: "¡Cotización enviada!",
        message: `Recibimos tu solicitud «${input.title}». Nuestro equipo la revisará y recibirás cotizaciones de socios en 24-48 horas.`,
      },
    );
    return ok({ id });
  });
}

// ---- Admin assigns partners

/** Assigns one partner (see assignPartners). */
export function assignPartner(
  database: DB,
  { requestId, partnerId, adminId }: { requestId: number; partnerId: number; adminId: number },
): Promise<Result<{ invited: number; alreadyAssigned: string[] }>> {
  return assignPartners(database, { requestId, partnerIds: [partnerId], adminId });
}

/**
 * Invites a batch of partners in one transaction. An unknown or inactive partner refuses the batch;
 * partners already in the round (another tab got there first) are left as they are and named in
 * the answer, the others invited; with nobody left to invite it is refused (SPEC's message). Each
 * partner invited is told; the buyer gets one notification per batch, not one per partner.
 */
export async function assignPartners(
  database: DB,
  {
    requestId,
    partnerIds,
    adminId,
  }: { requestId: number; partnerIds: readonly number[]; adminId: number },
): Promise<Result<{ invited: number; alreadyAssigned: string[] }>> {
  const unique = [...new Set(partnerIds)];
  if (unique.length === 0) return fail("invalid", "Elige un socio para asignar.", "partner_id");
  const step = async (
    tx: DB,
    request: LockedRequest,
    to: RequestStatus,
  ): Promise<Result<{ invited: number; alreadyAssigned: string[] }>> => {
    const partners = await tx
      .selectFrom("users")
      .select(["id", "company_name", "first_name", "last_name"])
      .where("id", "in", unique)
      .where("role", "=", "partner")
      .where("deactivated_at", "is", null)
      .execute();
    if (partners.length !== unique.length)
      return fail("invalid", "El usuario seleccionado no es un socio activo.", "partner_id");
    const inRound = new Set(
      (
        await tx
          .selectFrom("partner_assignments")
          .select("partner_id")
          .where("quote_request_id", "=", requestId)
          .where("partner_id", "in", unique)
          .where("state", "!=", "withdrawn")
          .execute()
      ).map((a) => a.partner_id),
    );
    const toInvite = unique.filter((id) => !inRound.has(id));
    if (toInvite.length === 0)
      return fail(
        "conflict",
        unique.length === 1
          ? "Este partner ya está asignado a esta cotización"
          : "Estos socios ya están asignados a esta solicitud.",
      );
    const nameOf = (id: number) => partnerName(partners.find((p) => p.id === id)!);
    const invited: string[] = [];
    for (const partnerId of toInvite) {
      const renewed = await inviteOnce(tx, { requestId, partnerId, adminId });
      invited.push(`${nameOf(partnerId)}${renewed ? " (invitado de nuevo)" : ""}`);
      await notifyAbout(
        tx,
        requestId,
        { partner: partnerId },
        {
          type: "info",
          title: "Nueva solicitud de cotización asignada",
          message: `Te asignamos la solicitud «${request.title}». Envía tu oferta o declínala antes del ${formatDateTime(request.quote_deadline)}.`,
        },
      );
    }
    const count = toInvite.length;
    if (to !== request.status) {
      const note = count === 1 ? "Socio asignado" : `${count} socios asignados`;
      await recordStatus(tx, requestId, request.status, to, adminId, note);
    } else {
      // A partner added to a round under way, or invited again: named on the operators' timeline
      // (the buyer's leaves partners out).
      await recordEvent(tx, request, adminId, "assigned", invited.join(", "));
    }
    await notifyAbout(
      tx,
      requestId,
      { buyer: request.buyer_id },
      {
        type: "info",
        title: "Socio asignado a tu solicitud",
        // A later batch says it adds to the round: two identical notices read as a duplicate.
        message:
          to === request.status
            ? `Sumamos ${count === 1 ? "un socio verificado más" : `${count} socios verificados más`} a «${request.title}»: tendrás más ofertas para comparar.`
            : count === 1
              ? `Asignamos un socio verificado a «${request.title}». Recibirás la cotización en 24-48 horas.`
              : `Asignamos ${count} socios verificados a «${request.title}». Recibirás la cotización en 24-48 horas.`,
      },
    );
    await scheduleDeadlineReminders(tx, requestId);
    return ok({ invited: count, alreadyAssigned: [...inRound].map(nameOf) });
  };
  return requestStep(database, { requestId, action: "assign_partner" }, step);
}

/**
 * One partner's invitation inside assignPartners' transaction, for a partner not in the round: a
 * new assignment, or a withdrawn invitation renewed in place (one row per partner and request;
 * assigned_at keeps the first invitation, state_changed_at dates the renewal; true when renewed).
 */
async function inviteOnce(
  tx: DB,
  { requestId, partnerId, adminId }: { requestId: number; partnerId: number; adminId: number },
): Promise<boolean> {
  const existing = await tx
    .selectFrom("partner_assignments")
    .select(["id", "state"])
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .executeTakeFirst();
  if (!existing) {
    await tx
      .insertInto("partner_assignments")
      .values({ partner_id: partnerId, quote_request_id: requestId, assigned_by: adminId })
      .execute();
    return false;
  }
  if (existing.state !== "withdrawn") throw new Error("inviteOnce: the partner is in the round");
  await tx
    .updateTable("partner_assignments")
    .set({ state: "invited", assigned_by: adminId, state_changed_at: now() })
    .where("id", "=", existing.id)
    .execute();
  return true;
}

// ---- Partner quotes

type PartnerQuoteInput = {
  requestId: number;
  partnerId: number;
  notes: string | null;
  file: { key: string; name: string; type: string } | null;
} & (
  | {
      /** Lines, subtotal, tax and total as computed by the domain (parseOffer), never the browser. */
      offer: OfferTerms;
    }
  | {
      /** A single amount without tax, lead time or validity (scripts and older clients). */
      amountCents: number;
    }
);

/**
 * Creates or updates the partner's quote. Only for a request assigned to this partner, only while
 * `assigned`, and never once selected. Returns the key of a replaced file for the caller to delete.
 */
export async function submitPartnerQuote(
  database: DB,
  input: PartnerQuoteInput,
): Promise<Result<{ replacedFileKey: string | null; updated: boolean }>> {
  const settings = await getSettings(database);
  const offer = "offer" in input ? input.offer : singleAmountOffer(input.amountCents);
  const tooLow = checkMinimum(offer, settings);
  if (tooLow) return tooLow;
  const offerColumns = {
    quoted_amount_cents: offer.totalCents,
    subtotal_cents: offer.subtotalCents,
    tax_rate: offer.taxRate,
    tax_cents: offer.taxCents,
    lead_time_days: offer.leadTimeDays,
    valid_until: offer.validUntil,
    payment_terms: offer.paymentTerms,
    notes: input.notes,
  };
  return lifecycleStep(database, async (tx) => {
    const assignment = await tx
      .selectFrom("partner_assignments")
      .select(["id", "state"])
      .where("quote_request_id", "=", input.requestId)
      .where("partner_id", "=", input.partnerId)
      .executeTakeFirst();
    const request = await lockRequest(tx, input.requestId);
    if (!assignment || !request) return fail("not_found", "Solicitud no encontrada");
    const refusal = offerRefusal(assignment.state, request.status, request.quote_deadline);
    if (refusal === "not_open") return wrongStatus(request.status);
    if (refusal)
      return fail("locked", offerRefusalMessage(refusal, assignment.state, request.quote_deadline));
    const existing = await tx
      .selectFrom("partner_quotes")
      .select(["id", "is_selected", "file_key"])
      .where("quote_request_id", "=", input.requestId)
      .where("partner_id", "=", input.partnerId)
      .executeTakeFirst();
    const timestamp = now();
    const fileColumns = input.file
      ? { file_key: input.file.key, file_name: input.file.name, file_type: input.file.type }
      : {};
    let partnerQuoteId: number;
    if (existing) {
      await tx
        .updateTable("partner_quotes")
        .set({ ...offerColumns, updated_at: timestamp, ...fileColumns })
        .where("id", "=", existing.id)
        .execute();
      partnerQuoteId = existing.id;
    } else {
      const inserted = await tx
        .insertInto("partner_quotes")
        .values({
          quote_request_id: input.requestId,
          partner_id: input.partnerId,
          ...offerColumns,
          created_at: timestamp,
          updated_at: timestamp,
          ...fileColumns,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      partnerQuoteId = inserted.id;
      await tx
        .updateTable("partner_assignments")
        .set({ state: "offered", state_changed_at: timestamp })
        .where("id", "=", assignment.id)
        .execute();
    }
    await replaceOfferItems(tx, partnerQuoteId, offer.lines);
    // The operators see who offered (the buyer never does: no names leave the desk).
    const partner = await tx
      .selectFrom("users")
      .select(["first_name", "last_name", "company_name"])
      .where("id", "=", input.partnerId)
      .executeTakeFirstOrThrow();
    await notifyAbout(tx, input.requestId, "admins", {
      type: "info",
      title: existing ? "Cotización de socio actualizada" : "Nueva cotización de socio",
      message: `${partnerName(partner)} ${existing ? "actualizó" : "envió"} su cotización para «${request.title}»: ${formatMoney(offer.totalCents, settings.currency)}.`,
    });
    return ok({
      updated: Boolean(existing),
      replacedFileKey: input.file && existing?.file_key ? existing.file_key : null,
    });
  });
}

// ---- Official quote (from a partner quote, or manual)

/**
 * Once an official quote is issued, the offer it came from is `selected` and every other offer is
 * `not_selected`; those partners are told. Invitations without an offer stay as they are (their
 * badge reads «Cerrada sin oferta») and those partners are told the round closed.
 */
async function closeOffers(
  tx: DB,
  request: { id: number; title: string },
  partnerQuoteId: number | null,
) {
  const timestamp = now();
  const selectedPartner = partnerQuoteId
    ? await tx
        .selectFrom("partner_quotes")
        .select("partner_id")
        .where("id", "=", partnerQuoteId)
        .executeTakeFirstOrThrow()
    : null;
  if (selectedPartner) {
    await tx
      .updateTable("partner_assignments")
      .set({ state: "selected", state_changed_at: timestamp })
      .where("quote_request_id", "=", request.id)
      .where("partner_id", "=", selectedPartner.partner_id)
      .execute();
  }
  const losers = await tx
    .updateTable("partner_assignments")
    .set({ state: "not_selected", state_changed_at: timestamp })
    .where("quote_request_id", "=", request.id)
    .where("state", "=", "offered")
    .returning("partner_id")
    .execute();
  for (const { partner_id } of losers) {
    await notifyAbout(
      tx,
      request.id,
      { partner: partner_id },
      {
        type: "info",
        title: "Oferta no seleccionada",
        message: `Gracias por tu oferta para «${request.title}». Esta vez elegimos otra propuesta; te seguiremos invitando a nuevas solicitudes.`,
      },
    );
  }
  // Partners still preparing an offer learn the round closed, instead of finding it closed.
  await notifyPartners(tx, request.id, ["invited"], {
    type: "info",
    title: "Ronda cerrada",
    message: `La ronda para cotizar «${request.title}» se cerró: ya emitimos la cotización oficial. No necesitas enviar una oferta; te seguiremos invitando a nuevas solicitudes.`,
  });
}

async function issueOfficialQuote(
  tx: DB,
  request: { id: number; buyer_id: number; title: string; status: RequestStatus },
  to: RequestStatus,
  {
    terms,
    partnerQuoteId,
    adminId,
    currency,
  }: { terms: OfficialTerms; partnerQuoteId: number | null; adminId: number; currency: string },
): Promise<number> {
  const { id } = await insertOfficialQuote(tx, request.id, { terms, partnerQuoteId, adminId });
  await closeOffers(tx, request, partnerQuoteId);
  await recordStatus(
    tx,
    request.id,
    request.status,
    to,
    adminId,
    partnerQuoteId ? "Cotización de socio aprobada" : "Cotización oficial manual",
  );
  await notifyAbout(
    tx,
    request.id,
    { buyer: request.buyer_id },
    {
      type: "success",
      title: "Tu cotización oficial está lista",
      message: `La cotización oficial de «${request.title}» es de ${formatMoney(terms.totalCents, currency)}. Revísala y apruébala desde tu panel.`,
    },
  );
  return id;
}

export async function approvePartnerQuote(
  database: DB,
  {
    requestId,
    partnerQuoteId,
    adminId,
    offerSeenAt,
  }: {
    requestId: number;
    partnerQuoteId: number;
    adminId: number;
    /**
     * The offer's updated_at on the operator's page (the form always sends it): an offer the
     * partner changed since is refused with its new total, not approved unseen. Without it (a
     * client that sends none), the current offer is approved.
     */
    offerSeenAt?: string;
  },
): Promise<Result<{ officialQuoteId: number }>> {
  const settings = await getSettings(database);
  const action = "approve_partner_quote";
  return requestStep(database, { requestId, action }, async (tx, request, to) => {
    const quote = await tx
      .selectFrom("partner_quotes")
      .select([
        "id",
        "partner_id",
        "quoted_amount_cents",
        "subtotal_cents",
        "tax_rate",
        "tax_cents",
        "lead_time_days",
        "valid_until",
        "payment_terms",
        "updated_at",
      ])
      .where("id", "=", partnerQuoteId)
      .where("quote_request_id", "=", requestId)
      .executeTakeFirst();
    if (!quote) return fail("invalid", "La cotización del socio no existe para esta solicitud.");
    if (offerSeenAt !== undefined && offerSeenAt !== quote.updated_at)
      return fail(
        "conflict",
        `El socio cambió esta oferta después de que abriste la página: ahora su total es ${formatMoney(quote.quoted_amount_cents, settings.currency)}. Revísala antes de aprobarla.`,
      );
    const today = utcDay();
    if (isExpired(quote.valid_until, today))
      return fail(
        "locked",
        `Esta oferta venció el ${formatDate(quote.valid_until!)}: pide al socio que la renueve antes de aprobarla.`,
      );
    const lines = (await offerItems(tx, [quote.id])).get(quote.id) ?? [];
    await tx
      .updateTable("partner_quotes")
      // Not updated_at: that is when the partner last changed the offer, as the pages show it.
      .set({ is_selected: 1 })
      .where("id", "=", quote.id)
      .execute();
    const officialQuoteId = await issueOfficialQuote(tx, request, to, {
      terms: {
        lines,
        subtotalCents: quote.subtotal_cents,
        taxRate: quote.tax_rate,
        taxCents: quote.tax_cents,
        totalCents: quote.quoted_amount_cents,
        leadTimeDays: quote.lead_time_days,
        paymentTerms: quote.payment_terms,
        validUntil: officialValidity(today, quote.valid_until),
      },
      partnerQuoteId: quote.id,
      adminId,
      currency: settings.currency,
    });
    await notifyAbout(
      tx,
      requestId,
      { partner: quote.partner_id },
      {
        type: "success",
        title: "¡Tu cotización fue seleccionada!",
        message: `Felicitaciones: elegimos tu cotización para «${request.title}».`,
      },
    );
    return ok({ officialQuoteId });
  });
}

/** The operator's own official quote: one amount without tax, valid for 30 days. */
export async function createManualOfficialQuote(
  database: DB,
  { requestId, amountCents, adminId }: { requestId: number; amountCents: number; adminId: number },
): Promise<Result<{ officialQuoteId: number }>> {
  const settings = await getSettings(database);
  const offer = singleAmountOffer(amountCents);
  const tooLow = checkMinimum(offer, settings);
  if (tooLow) return tooLow;
  const action = "create_manual_quote";
  return requestStep(database, { requestId, action }, async (tx, request, to) => {
    const officialQuoteId = await issueOfficialQuote(tx, request, to, {
      terms: { ...offer, validUntil: officialValidity(utcDay(), null) },
      partnerQuoteId: null,
      adminId,
      currency: settings.currency,
    });
    return ok({ officialQuoteId });
  });
}

// ---- quoted → approved (the buyer approves, or the operator records the buyer's approval)

/**
 * Exactly one pending payment per official quote. The check and the insert run in the same
 * IMMEDIATE transaction (no other writer in between); the partial unique index is the backstop.
 */
async function ensurePendingPayment(tx: DB, requestId: number, buyerId: number): Promise<void> {
  const official = await currentOfficialQuote(tx, requestId);
  // Nothing to pay without an official quote (only the operator's override gets here without one).
  if (!official) return;
  const pending = await tx
    .selectFrom("payments")
    .select("id")
    .where("official_quote_id", "=", official.id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (pending) return;
  const timestamp = now();
  await tx
    .insertInto("payments")
    .values({
      quote_request_id: requestId,
      official_quote_id: official.id,
      buyer_id: buyerId,
      amount_cents: official.final_amount_cents,
      status: "pending",
      created_at: timestamp,
      updated_at: timestamp,
    })
    .execute();
}

/**
 * SPEC's «Enviar a Comprador», as what it is (DECISIONS §9): the operator records that the buyer
 * approved outside the product (by phone, e-mail, a signed order), saying how in `note`. The
 * history keeps it as the operator's act, and the buyer is told the team recorded its approval,
 * never that it approved in the product.
 */
export async function recordBuyerApproval(
  database: DB,
  { requestId, adminId, note }: { requestId: number; adminId: number; note: string },
): Promise<Result> {
  const how = note.trim();
  if (!how)
    return fail(
      "invalid",
      "Indica cómo aprobó el comprador (teléfono, correo, orden firmada…).",
      "note",
    );
  const action = "record_buyer_approval";
  return requestStep(database, { requestId, action }, async (tx, request, to) => {
    const expired = await refuseIfExpired(tx, requestId);
    if (expired) return expired;
    const history = `Aprobación del comprador registrada por el equipo: ${how}`;
    await recordStatus(tx, requestId, request.status, to, adminId, history);
    await ensurePendingPayment(tx, requestId, request.buyer_id);
    await notifyAbout(
      tx,
      requestId,
      { buyer: request.buyer_id },
      {
        type: "success",
        title: "El equipo registró tu aprobación",
        message: `El equipo de CotizaHub registró tu aprobación de la cotización oficial de «${request.title}» (${how}). Sube tu comprobante de pago para completar la compra.`,
      },
    );
    return ok();
  });
}

/**
 * The buyer approves the official quote. `version` is the one their page showed (the page always
 * sends it): a version issued since then, at another price, is refused with the new total, not
 * approved unseen. A client that sends none (DECISIONS §4 lists no such field) approves the
 * current one.
 */
export async function buyerApproveQuote(
  database: DB,
  { requestId, buyerId, version }: { requestId: number; buyerId: number; version?: number },
): Promise<Result> {
  const action = "buyer_approve";
  const result = await requestStep(
    database,
    { requestId, action, buyerId },
    async (tx, request, to) => {
      const expired = await refuseIfExpired(tx, requestId);
      if (expired) return expired;
      const current = await currentOfficialQuote(tx, requestId);
      if (current && version !== undefined && current.version !== version)
        return fail(
          "conflict",
          `La cotización oficial cambió mientras la revisabas: ahora es la versión ${current.version}, por ${formatMoney(current.final_amount_cents, current.currency)}. Revísala y vuelve a aprobarla.`,
        );
      await recordStatus(tx, requestId, request.status, to, buyerId, "Aprobada por el comprador");
      await ensurePendingPayment(tx, requestId, buyerId);
      await notifyAbout(tx, requestId, "admins", {
        type: "success",
        title: "Cotización aprobada por el comprador",
        message: `${await buyerLabel(tx, buyerId)} aprobó la cotización oficial de «${request.title}». Queda pendiente su pago.`,
      });
      return ok();
    },
  );
  // A second click, or a second tab: the approval the first one made is what the buyer sees.
  if (!result.ok && result.code === "conflict") {
    const now = await database
      .selectFrom("quote_requests")
      .select("status")
      .where("id", "=", requestId)
      .where("buyer_id", "=", buyerId)
      .executeTakeFirst();
    if (now?.status === "approved")
      return fail(
        "conflict",
        "Esta cotización ya está aprobada. Sube tu comprobante de pago para completar la compra.",
      );
  }
  return result;
}

export async function buyerRejectQuote(
  database: DB,
  { requestId, buyerId, reason }: { requestId: number; buyerId: number; reason: string | null },
): Promise<Result> {
  const action = "buyer_reject";
  return requestStep(database, { requestId, action, buyerId }, async (tx, request, to) => {
    const confirmed = await tx
      .selectFrom("payments")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .where("status", "=", "confirmed")
      .executeTakeFirst();
    if (confirmed) return wrongStatus("paid");
    await voidPendingPayments(tx, requestId, "Cotización rechazada por el comprador.");
    await tx
      .updateTable("quote_requests")
      .set({ rejection_reason: reason })
      .where("id", "=", requestId)
      .execute();
    const note = reason ?? "Rechazada por el comprador";
    await recordStatus(tx, requestId, request.status, to, buyerId, note);
    const selected = await tx
      .selectFrom("partner_assignments")
      .select("partner_id")
      .where("quote_request_id", "=", requestId)
      .where("state", "=", "selected")
      .executeTakeFirst();
    if (selected) {
      await notifyAbout(
        tx,
        requestId,
        { partner: selected.partner_id },
        {
          type: "warning",
          title: "El comprador rechazó la cotización",
          message: `El comprador rechazó la cotización oficial de «${request.title}», basada en tu oferta. Si reabrimos la solicitud podrás revisarla.`,
        },
      );
    }
    await notifyAbout(tx, requestId, "admins", {
      type: "warning",
      title: "Cotización rechazada por el comprador",
      message: `${await buyerLabel(tx, buyerId)} rechazó la cotización oficial de «${request.title}».${reason ? ` Motivo: ${reason}` : ""}`,
    });
    return ok();
  });
}

/**
 * The operator's override (SPEC's status select): any status, always written to the history.
 * The request's payments follow it: a request leaving `approved` (other than by payment) has its
 * pending payment voided, as a buyer's cancel or rejection voids it; `paid` is refused while a
 * payment is pending, which is confirmed in Pagos (that writes the commission and the points).
 * «Aprobado» makes sure the official quote's payment is pending, as sending the quote does.
 * Keeping the status with a note adds the note to the history; without a note nothing changes
 * and the operator is told so.
 */
export async function adminSetStatus(
  database: DB,
  {
    requestId,
    status,
    adminId,
    note,
  }: { requestId: number; status: RequestStatus; adminId: number; note: string | null },
): Promise<Result<{ changed: boolean }>> {
  return lifecycleStep(database, async (tx): Promise<Result<{ changed: boolean }>> => {
    const request = await lockRequest(tx, requestId);
    if (!request) return notFound();
    if (!canAdminOverride(request.status, status)) {
      if (!note)
        return fail(
          "invalid",
          `La solicitud ya está en «${STATUS_LABELS[status]}»: elige otro estado o escribe una nota.`,
          "status",
        );
      await recordEvent(tx, request, adminId, "note", note);
      return ok({ changed: false });
    }
    const pending = await tx
      .selectFrom("payments")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .where("status", "=", "pending")
      .execute();
    if (status === "paid" && pending.length > 0)
      return fail(
        "conflict",
        `Esta solicitud tiene un pago pendiente (N.º\u00a0${pending[0]!.id}): confírmalo en Pagos, así se registran la comisión y los puntos del comprador.`,
        "status",
      );
    // «Aprobado» means a payment is awaited, however the request got there (DECISIONS §3): with an
    // official quote to pay, its pending payment exists afterwards.
    if (status === "approved") await ensurePendingPayment(tx, requestId, request.buyer_id);
    const voided =
      status === "approved"
        ? 0
        : await voidPendingPayments(
            tx,
            requestId,
            `Solicitud pasada a «${STATUS_LABELS[status]}» por el equipo de CotizaHub.`,
          );
    await recordStatus(
      tx,
      requestId,
      request.status,
      status,
      adminId,
      note ?? "Cambio manual de estado",
      { override: true },
    );
    await notifyAbout(
      tx,
      requestId,
      { buyer: request.buyer_id },
      {
        type: "info",
        title: "Estado de tu solicitud actualizado",
        message: `«${request.title}» pasó a estado «${STATUS_LABELS[status]}».${voided > 0 ? " Se anularon sus pagos pendientes." : ""}`,
      },
    );
    return ok({ changed: true });
  });
}

export async function setAdminNotes(
  database: DB,
  requestId: number,
  notes: string | null,
): Promise<Result> {
  const result = await database
    .updateTable("quote_requests")
    .set({ admin_notes: notes, updated_at: now() })
    .where("id", "=", requestId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? ok() : notFound();
}
