import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { ReferenceMatch } from "~/components/admin/ReferenceMatch";
import { AdminPanelTabs } from "~/components/admin/AdminPanelTabs";
import { FilterSelect, SearchBar } from "~/components/admin/SearchBar";
import { PaymentItem } from "~/components/quotes/PaymentItem";
import { EmptyState } from "~/components/ui/EmptyState";
import { Field, FormErrors, SelectField } from "~/components/ui/Field";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { PAYMENTS_PAGE_SIZE } from "~/domain/pagination";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, PAYMENT_STATUS_LABELS } from "~/domain/payments";
import {
  ADMIN_PAYMENT_SORTS,
  dateRangeFrom,
  hasRange,
  RANGE_SUBJECTS,
  sortFrom,
} from "~/domain/list-filters";
import {
  ActiveFilters,
  DateRangeFields,
  rangeChip,
  SortSelect,
  sortChip,
} from "~/components/ui/ListFilters";
import {
  adminPaymentCounts,
  confirmPayment,
  listPaymentsForAdmin,
  paymentStatusFromUrl,
  rejectPayment,
} from "~/models/payment.server";
import { requestByReference } from "~/models/quote-request.server";
import { searchFromUrl } from "~/utils/like";
import { requestReferenceIn } from "~/utils/search";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { intents, readForm } from "~/services/form.server";
import { invalidForm, respond, samePage } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { countOf, formatDateTime, matchCountOf } from "~/utils/format";
import { pageRequestFromUrl } from "~/utils/keyset";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Pagos · Administración · CotizaHub",
    "Comprobantes de pago por validar y pagos revisados.",
  );

/** Payment review: proofs sent by buyers, confirmed or rejected here (DECISIONS §3). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const status = paymentStatusFromUrl(url);
  const dates = dateRangeFrom(url.searchParams);
  const sort = sortFrom(url.searchParams.get("orden"), ADMIN_PAYMENT_SORTS);
  const page = pageRequestFromUrl(url);
  const [settings, counts, list, byNumber] = await Promise.all([
    getSettings(db),
    adminPaymentCounts(db),
    listPaymentsForAdmin(db, { q, status, page, range: dates.range, sort }),
    requestByReference(db, requestReferenceIn(q)),
  ]);
  const proofs = Object.fromEntries(
    await Promise.all(
      list.rows
        .filter((p) => p.proof_key)
        .map(async (p) => [p.id, await fileLinks(paths.files.payment(p.id), admin.id)] as const),
    ),
  );
  const receipts = Object.fromEntries(
    await Promise.all(
      list.rows
        .filter((p) => p.status === "confirmed")
        .map(
          async (p) =>
            [p.id, (await fileLinks(paths.files.receipt(p.id), admin.id)).download] as const,
        ),
    ),
  );
  return {
    ...list,
    byNumber,
    q,
    status,
    dates,
    sort,
    proofs,
    receipts,
    counts,
    currency: settings.currency,
  };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  const paymentId = z.coerce.number({ message: "Pago no encontrado." }).int().positive();
  return intents([
    z.object({
      intent: z.literal("confirm_payment"),
      payment_id: paymentId,
      // The proof the page showed: one the buyer replaced since is not confirmed unseen.
      proof_seen: z.string().optional(),
    }),
    z.object({
      intent: z.literal("record_payment"),
      payment_id: paymentId,
      method: z.enum(PAYMENT_METHODS, { message: "Elige cómo se pagó." }),
      note: z
        .string({ required_error: "Indica cómo se recibió el pago: queda en el historial." })
        .trim()
        .max(500, "La nota no puede superar 500 caracteres."),
    }),
    z.object({
      intent: z.literal("reject_payment"),
      payment_id: paymentId,
      reason: z
        .string({ required_error: "Indica el motivo del rechazo: el comprador lo verá." })
        .trim()
        .max(500, "El motivo no puede superar 500 caracteres."),
    }),
  ]);
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const back = samePage(request);
  if (input.intent === "confirm_payment" || input.intent === "record_payment") {
    const recorded = input.intent === "record_payment";
    const result = await confirmPayment(db, {
      paymentId: input.payment_id,
      adminId: admin.id,
      ...(input.intent === "record_payment"
        ? { proofSeen: "", received: { method: input.method, note: input.note } }
        : { proofSeen: input.proof_seen }),
    });
    return respond(result, submission, ({ points }) => ({
      to: back,
      toast: {
        type: "success",
        title: "Éxito",
        description: `${recorded ? "Pago registrado" : "Pago confirmado"}. La solicitud quedó pagada y el comprador sumó ${countOf(points, "punto", "puntos")}.`,
      },
    }));
  }
  const result = await rejectPayment(db, {
    paymentId: input.payment_id,
    adminId: admin.id,
    reason: input.reason,
  });
  return respond(result, submission, () => ({
    to: back,
    toast: {
      type: "success",
      title: "Éxito",
      description: "Pago rechazado. Avisamos al comprador.",
    },
  }));
}

export default function AdminPayments() {
  const {
    rows,
    total,
    totalCapped,
    pageInfo,
    byNumber,
    q,
    status,
    dates,
    sort,
    proofs,
    receipts,
    counts,
    currency,
  } = useLoaderData<typeof loader>();
  const filtered = Boolean(q || status || hasRange(dates.range) || sort !== "cola");
  const form = serverForm(useActionData<typeof action>()?.result);
  const refusedId = form.field("payment_id").defaultValue;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <h1 className="page-title">Panel de administración</h1>
      <AdminPanelTabs awaitingReview={counts.awaitingReview} />
      <StatGrid>
        <StatCard
          label="Por validar"
          value={counts.awaitingReview}
          hint="Con comprobante enviado"
        />
        <StatCard label="Pendientes" value={counts.pending} />
        <StatCard label="Confirmados" value={counts.confirmed} />
        <StatCard label="Rechazados" value={counts.rejected} />
      </StatGrid>
      <SearchBar q={q} label="Buscar por título o comprador" submitLabel="Filtrar" className="">
        <FilterSelect value={status} options={PAYMENT_STATUS_LABELS} />
        <DateRangeFields input={dates} subject={RANGE_SUBJECTS.payments} />
        <SortSelect sorts={ADMIN_PAYMENT_SORTS} value={sort} />
      </SearchBar>
      <ActiveFilters
        chips={[rangeChip(dates, RANGE_SUBJECTS.payments), sortChip(ADMIN_PAYMENT_SORTS, sort)]}
      />
      <ReferenceMatch request={byNumber} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {matchCountOf(total, totalCapped, "pago", "pagos")}
        </p>
        {/* A file, not a page: a plain link, so the browser downloads it. */}
        <a
          href={paths.admin.paymentsCsv({
            q,
            status,
            desde: dates.range.from,
            hasta: dates.range.to,
            orden: sort === ADMIN_PAYMENT_SORTS[0] ? null : sort,
          })}
          className="btn-secondary"
          download
        >
          Exportar CSV
          {filtered ? <span className="sr-only"> de los pagos filtrados</span> : null}
        </a>
      </div>
      {refusedId === undefined ? <FormErrors errors={form.formErrors} /> : null}
      {rows.length === 0 && total > 0 ? null : rows.length === 0 ? (
        <EmptyState title={filtered ? "No se encontraron resultados" : "No hay pagos"} />
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => {
            const refused = refusedId === String(p.id);
            return (
              <PaymentItem
                key={p.id}
                payment={p}
                href={paths.admin.quote(p.quote_request_id)}
                currency={currency}
                byline={
                  <p className="text-sm text-slate-700">
                    {p.buyer_company || "Empresa no especificada"} · {p.buyer_first_name}{" "}
                    {p.buyer_last_name}
                  </p>
                }
                amountNote={
                  p.submitted_at
                    ? ` · comprobante enviado el ${formatDateTime(p.submitted_at)}`
                    : p.status === "pending"
                      ? " · esperando comprobante del comprador"
                      : " · sin comprobante"
                }
                details={
                  p.rejection_reason ? (
                    <p className="text-sm text-red-800">Motivo del rechazo: {p.rejection_reason}</p>
                  ) : null
                }
              >
                {proofs[p.id] ? (
                  <p className="mt-2 flex flex-wrap gap-3 text-sm">
                    <a
                      href={proofs[p.id]!.open}
                      target="_blank"
                      rel="noreferrer"
                      className="text-brand-700 hover:underline"
                    >
                      Ver comprobante<span className="sr-only"> de {p.title}</span>
                    </a>
                    <a
                      href={proofs[p.id]!.download}
                      download
                      className="text-brand-700 hover:underline"
                    >
                      Descargar<span className="sr-only"> el comprobante de {p.title}</span>
                    </a>
                  </p>
                ) : null}
                {receipts[p.id] ? (
                  <p className="mt-2 text-sm">
                    <a href={receipts[p.id]} download className="text-brand-700 hover:underline">
                      Descargar recibo<span className="sr-only"> de {p.title}</span>
                    </a>
                  </p>
                ) : null}
                {refused ? (
                  <div className="mt-3">
                    <FormErrors
                      title="No se pudo actualizar el estado del pago"
                      errors={form.formErrors}
                    />
                  </div>
                ) : null}
                {p.status === "pending" && p.proof_key ? (
                  <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
                    <Form method="post">
                      <input type="hidden" name="intent" value="confirm_payment" />
                      <input type="hidden" name="payment_id" value={p.id} />
                      <input type="hidden" name="proof_seen" value={p.proof_key ?? ""} />
                      <button type="submit" className="btn-primary" disabled={busy}>
                        Confirmar pago<span className="sr-only"> de {p.title}</span>
                      </button>
                    </Form>
                    <Form
                      method="post"
                      className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end"
                    >
                      <input type="hidden" name="intent" value="reject_payment" />
                      <input type="hidden" name="payment_id" value={p.id} />
                      <div className="flex-1">
                        <Field
                          label="Motivo del rechazo"
                          name="reason"
                          id={`motivo-${p.id}`}
                          maxLength={500}
                          placeholder="Ej.: el comprobante no es legible"
                          defaultValue={refused ? form.field("reason").defaultValue : undefined}
                          errors={refused ? form.field("reason").errors : undefined}
                        />
                      </div>
                      <button type="submit" className="btn-danger" disabled={busy}>
                        Rechazar<span className="sr-only"> el pago de {p.title}</span>
                      </button>
                    </Form>
                  </div>
                ) : null}
                {p.status === "pending" && !p.proof_key ? (
                  <details className="mt-3" open={refused}>
                    <summary className="cursor-pointer text-sm font-semibold text-brand-700">
                      Registrar un pago recibido sin comprobante
                      <span className="sr-only"> para {p.title}</span>
                    </summary>
                    <Form
                      method="post"
                      className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end"
                    >
                      <input type="hidden" name="intent" value="record_payment" />
                      <input type="hidden" name="payment_id" value={p.id} />
                      <SelectField
                        label="Cómo se pagó"
                        name="method"
                        id={`metodo-${p.id}`}
                        defaultValue={refused ? form.field("method").defaultValue : "transfer"}
                        errors={refused ? form.field("method").errors : undefined}
                      >
                        {PAYMENT_METHODS.map((m) => (
                          <option key={m} value={m}>
                            {PAYMENT_METHOD_LABELS[m]}
                          </option>
                        ))}
                      </SelectField>
                      <div className="flex-1">
                        <Field
                          label="Nota para el historial"
                          name="note"
                          id={`nota-${p.id}`}
                          maxLength={500}
                          placeholder="Ej.: efectivo recibido en oficina, recibo 0142"
                          defaultValue={refused ? form.field("note").defaultValue : undefined}
                          errors={refused ? form.field("note").errors : undefined}
                        />
                      </div>
                      <button type="submit" className="btn-primary" disabled={busy}>
                        Registrar pago<span className="sr-only"> de {p.title}</span>
                      </button>
                    </Form>
                  </details>
                ) : null}
              </PaymentItem>
            );
          })}
        </ul>
      )}
      <KeysetPagination pageInfo={pageInfo} pageSize={PAYMENTS_PAGE_SIZE} total={total} />
    </div>
  );
}
