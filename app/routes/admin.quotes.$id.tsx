import { readForm } from "~/services/form.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PAYMENT_METHOD_LABELS } from "~/domain/payments";
import { data, redirect } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import type { RequestStatus } from "../../db/schema";
import { NotFoundPanel, notFoundResponse } from "~/components/NotFoundPanel";
import { Timeline } from "~/components/quotes/Timeline";
import { StatusBadge } from "~/components/StatusBadge";
import { Badge } from "~/components/ui/Badge";
import { FormAlert } from "~/components/ui/Field";
import { formatMoney, parseAmountToCents } from "~/domain/money";
import {
  adminStatusLabel,
  canApprovePartnerQuote,
  canAssignPartner,
  canCreateManualQuote,
  canSendToBuyer,
  isRequestStatus,
  REQUEST_STATUSES,
  STATUS_LABELS,
} from "~/domain/quote-status";
import {
  adminSetStatus,
  approvePartnerQuote,
  assignPartner,
  createManualOfficialQuote,
  sendOfficialQuoteToBuyer,
  setAdminNotes,
} from "~/models/quote-lifecycle.server";
import { getRequestForAdmin, listAssignablePartners } from "~/models/quote-request.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { toastCookie } from "~/services/session.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { PaymentStatusBadge } from "~/components/PaymentStatusBadge";
import { RequirementsFile } from "~/components/quotes/RequirementsFile";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.request.title ?? "Cotización no encontrada"} · Administración · CotizaHub` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const id = idFrom(params.id);
  const detail = id ? await getRequestForAdmin(db, id) : undefined;
  if (!detail) throw notFoundResponse();
  const [settings, partners, attachment, pdf, quoteFiles, proofFiles] = await Promise.all([
    getSettings(db),
    listAssignablePartners(db, detail.request.id),
    fileLinks(`/files/requests/${detail.request.id}`, admin.id),
    detail.officialQuote
      ? fileLinks(`/files/official-quotes/${detail.request.id}`, admin.id)
      : null,
    Promise.all(
      detail.partnerQuotes.map(async (pq) =>
        pq.file_key
          ? ([pq.id, await fileLinks(`/files/partner-quotes/${pq.id}`, admin.id)] as const)
          : null,
      ),
    ),
    Promise.all(
      detail.payments.map(async (p) =>
        p.proof_key
          ? ([p.id, await fileLinks(`/files/payments/${p.id}`, admin.id)] as const)
          : null,
      ),
    ),
  ]);
  return {
    ...detail,
    partners,
    attachment,
    pdf,
    quoteFiles: Object.fromEntries(quoteFiles.filter((x) => x !== null)),
    proofFiles: Object.fromEntries(proofFiles.filter((x) => x !== null)),
    currency: settings.currency,
    commission: settings.defaultCommission,
  };
}

type ActionResult = {
  intent: string;
  error: string;
  title?: string;
  values?: Record<string, string>;
};

async function success(id: number, description: string) {
  return redirect(`/admin/quotes/${id}`, {
    headers: { "Set-Cookie": await toastCookie({ type: "success", title: "Éxito", description }) },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const id = idFrom(params.id);
  if (!id) throw notFoundResponse();
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const failure = (error: string, extra: Partial<ActionResult> = {}) =>
    data<ActionResult>({ intent, error, ...extra }, { status: 400 });

  switch (intent) {
    case "assign": {
      const partnerId = idFrom(form.get("partner_id"));
      if (!partnerId) return failure("Elige un socio para asignar.");
      const result = await assignPartner(db, { requestId: id, partnerId, adminId: admin.id });
      if (!result.ok) {
        if (result.error === "not_found") throw notFoundResponse();
        return failure(result.message, {
          title: result.error === "already_assigned" ? "Aviso" : "No se pudo asignar el partner",
        });
      }
      return success(id, "Socio asignado a la solicitud.");
    }
    case "approve_partner_quote": {
      const partnerQuoteId = idFrom(form.get("partner_quote_id")) ?? 0;
      const result = await approvePartnerQuote(db, {
        requestId: id,
        partnerQuoteId,
        adminId: admin.id,
      });
      if (!result.ok) {
        if (result.error === "not_found" && result.message === "Cotización no encontrada")
          throw notFoundResponse();
        return failure(result.message, { title: "No se pudo aprobar la cotización del partner" });
      }
      return success(id, "Cotización del socio aprobada: se creó la cotización oficial.");
    }
    case "manual_quote": {
      const raw = String(form.get("amount") ?? "");
      const amountCents = parseAmountToCents(raw);
      if (amountCents === null || amountCents <= 0) {
        return failure("Ingresa un monto válido mayor que cero (por ejemplo 1234.50 o 1234,50).", {
          title: "No se pudo crear la cotización oficial",
          values: { amount: raw },
        });
      }
      const result = await createManualOfficialQuote(db, {
        requestId: id,
        amountCents,
        adminId: admin.id,
      });
      if (!result.ok) {
        if (result.error === "not_found") throw notFoundResponse();
        return failure(result.message, {
          title: "No se pudo crear la cotización oficial",
          values: { amount: raw },
        });
      }
      return success(id, "Cotización oficial creada.");
    }
    case "send_to_buyer": {
      const result = await sendOfficialQuoteToBuyer(db, { requestId: id, adminId: admin.id });
      if (!result.ok) {
        if (result.error === "not_found") throw notFoundResponse();
        return failure(result.message, { title: "No se pudo enviar la cotización" });
      }
      return success(id, "Cotización enviada al comprador para pago.");
    }
    case "set_status": {
      const status = form.get("status");
      if (!isRequestStatus(status))
        return failure("Elige un estado válido.", { title: "No se pudo actualizar el estado" });
      const note =
        String(form.get("note") ?? "")
          .trim()
          .slice(0, 500) || null;
      const result = await adminSetStatus(db, {
        requestId: id,
        status: status as RequestStatus,
        adminId: admin.id,
        note,
      });
      if (!result.ok) {
        if (result.error === "not_found") throw notFoundResponse();
        return failure(result.message, { title: "No se pudo actualizar el estado" });
      }
      return success(id, `Estado actualizado a «${STATUS_LABELS[status]}».`);
    }
    case "notes": {
      const notes =
        String(form.get("admin_notes") ?? "")
          .trim()
          .slice(0, 5000) || null;
      if (!(await setAdminNotes(db, id, notes))) throw notFoundResponse();
      return success(id, "Notas guardadas. El comprador las ve en su solicitud.");
    }
    default:
      return failure("Acción no reconocida.");
  }
}

export default function AdminQuoteDetail() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { request } = d;
  const status = request.status;
  return (
    <div className="space-y-6">
      <nav aria-label="Ruta de navegación" className="text-sm">
        <Link to="/admin/quotes" className="text-brand-700 hover:underline">
          ← Cotizaciones
        </Link>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="page-title">{request.title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            Solicitud #{request.id} · creada el {formatDateTime(request.created_at)}
          </p>
        </div>
        <StatusBadge status={status} label={adminStatusLabel(status, d.partnerQuotes.length)} />
      </div>

      {actionData?.error ? (
        <FormAlert title={actionData.title ?? "Error"}>{actionData.error}</FormAlert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <section aria-labelledby="detalle" className="card">
            <h2 id="detalle" className="text-lg font-semibold">
              Detalles de la solicitud
            </h2>
            <p className="mt-3 whitespace-pre-line text-slate-800">
              {request.description || "Sin descripción."}
            </p>
            <RequirementsFile fileName={request.file_name} links={d.attachment} />
            <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-600">Comprador</dt>
                <dd className="font-medium">
                  {request.buyer_first_name} {request.buyer_last_name}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Empresa</dt>
                <dd className="font-medium">
                  {request.buyer_company || "Empresa no especificada"}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Correo</dt>
                <dd>
                  <a
                    href={`mailto:${request.buyer_email}`}
                    className="text-brand-700 hover:underline"
                  >
                    {request.buyer_email}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Teléfono</dt>
                <dd>
                  {request.buyer_phone ? (
                    <a
                      href={`tel:${request.buyer_phone}`}
                      className="text-brand-700 hover:underline"
                    >
                      {request.buyer_phone}
                    </a>
                  ) : (
                    "—"
                  )}
                </dd>
              </div>
            </dl>
          </section>

          <section aria-labelledby="cotizaciones-socios" className="card">
            <h2 id="cotizaciones-socios" className="text-lg font-semibold">
              Cotizaciones de socios ({d.partnerQuotes.length})
            </h2>
            {d.partnerQuotes.length === 0 ? (
              <p className="mt-3 text-sm text-slate-700">
                {d.assignments.length
                  ? "Esperando las cotizaciones de los socios asignados."
                  : "Asigna socios para recibir cotizaciones."}
              </p>
            ) : (
              <ul className="mt-3 grid gap-3 sm:grid-cols-2">
                {d.partnerQuotes.map((pq, index) => (
                  <li
                    key={pq.id}
                    className={`rounded-lg border p-4 ${pq.is_selected ? "border-green-500 bg-green-50" : "border-slate-200"}`}
                  >
                    <div className="flex items-start justify-between gap-2">
                      <p className="font-semibold">
                        {pq.company_name || `${pq.first_name} ${pq.last_name}`}
                      </p>
                      {pq.is_selected ? (
                        <Badge tone="green">Seleccionada</Badge>
                      ) : index === 0 && d.partnerQuotes.length > 1 ? (
                        <Badge tone="blue">Menor precio</Badge>
                      ) : null}
                    </div>
                    <p className="text-xs text-slate-600">
                      {pq.first_name} {pq.last_name} · {formatDateTime(pq.updated_at)}
                    </p>
                    <p
                      className="mt-2 text-xl font-bold"
                      data-testid={`cotizacion-socio-${pq.partner_id}`}
                    >
                      {formatMoney(pq.quoted_amount_cents, d.currency)}
                    </p>
                    {pq.notes ? (
                      <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{pq.notes}</p>
                    ) : null}
                    {d.quoteFiles[pq.id] ? (
                      <p className="mt-2 text-sm">
                        <a
                          href={d.quoteFiles[pq.id]!.download}
                          className="text-brand-700 hover:underline"
                          download
                        >
                          Descargar archivo ({pq.file_name})
                        </a>
                      </p>
                    ) : null}
                    {canApprovePartnerQuote(status) ? (
                      <Form method="post" className="mt-3">
                        <input type="hidden" name="intent" value="approve_partner_quote" />
                        <input type="hidden" name="partner_quote_id" value={pq.id} />
                        <button type="submit" className="btn-primary w-full" disabled={busy}>
                          Aprobar
                          <span className="sr-only">
                            {" "}
                            la cotización de {pq.company_name || pq.first_name}
                          </span>
                        </button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="oficial" className="card">
            <h2 id="oficial" className="text-lg font-semibold">
              Cotización oficial
            </h2>
            {d.officialQuote && d.pdf ? (
              <>
                <dl className="mt-3 grid gap-3 sm:grid-cols-3">
                  <div>
                    <dt className="text-sm text-slate-600">Monto final</dt>
                    <dd className="text-xl font-bold">
                      {formatMoney(d.officialQuote.final_amount_cents, d.officialQuote.currency)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-sm text-slate-600">
                      Comisión ({d.officialQuote.commission_percentage.toLocaleString("es-MX")} %)
                    </dt>
                    <dd className="font-semibold">
                      {formatMoney(
                        d.officialQuote.commission_amount_cents,
                        d.officialQuote.currency,
                      )}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-sm text-slate-600">Válida hasta</dt>
                    <dd className="font-semibold">{formatDate(d.officialQuote.valid_until)}</dd>
                  </div>
                </dl>
                <div className="mt-4 flex flex-wrap gap-3">
                  <a href={d.pdf.download} className="btn-secondary" download>
                    Descargar PDF
                  </a>
                  {canSendToBuyer(status) ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="send_to_buyer" />
                      <button type="submit" className="btn-primary" disabled={busy}>
                        Enviar a Comprador
                      </button>
                    </Form>
                  ) : null}
                </div>
              </>
            ) : canCreateManualQuote(status) ? (
              <Form method="post" className="mt-3 space-y-3">
                <input type="hidden" name="intent" value="manual_quote" />
                <p className="text-sm text-slate-700">
                  Aprueba la cotización de un socio o crea una cotización oficial manual. Se
                  aplicará la comisión vigente ({d.commission.toLocaleString("es-MX")} %) y una
                  validez de 30 días.
                </p>
                <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
                  <div className="flex-1">
                    <label htmlFor="manual-amount" className="label">
                      Monto final ({d.currency})
                    </label>
                    <input
                      id="manual-amount"
                      name="amount"
                      inputMode="decimal"
                      className="input"
                      placeholder="1234.50"
                      defaultValue={
                        actionData?.intent === "manual_quote"
                          ? actionData.values?.amount
                          : undefined
                      }
                      required
                    />
                  </div>
                  <button type="submit" className="btn-secondary" disabled={busy}>
                    Crear cotización oficial
                  </button>
                </div>
              </Form>
            ) : (
              <p className="mt-3 text-sm text-slate-700">
                Esta solicitud no tiene cotización oficial.
              </p>
            )}
          </section>

          {d.payments.length > 0 ? (
            <section aria-labelledby="pagos" className="card">
              <h2 id="pagos" className="text-lg font-semibold">
                Pagos
              </h2>
              <ul className="mt-3 divide-y divide-slate-200 text-sm">
                {d.payments.map((p) => (
                  <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <span>
                      {formatMoney(p.amount_cents, d.currency)}
                      {p.method ? ` · ${PAYMENT_METHOD_LABELS[p.method]}` : ""}
                      {p.submitted_at
                        ? ` · ${formatDateTime(p.submitted_at)}`
                        : " · sin comprobante"}
                      {p.rejection_reason ? ` · Motivo: ${p.rejection_reason}` : ""}
                    </span>
                    <span className="flex items-center gap-2">
                      {d.proofFiles[p.id] ? (
                        <a
                          href={d.proofFiles[p.id]!.open}
                          className="text-brand-700 hover:underline"
                          target="_blank"
                          rel="noreferrer"
                        >
                          Ver comprobante
                        </a>
                      ) : null}
                      <PaymentStatusBadge status={p.status} />
                    </span>
                  </li>
                ))}
              </ul>
              <Link
                to="/admin?tab=payments"
                className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline"
              >
                Validar pagos
              </Link>
            </section>
          ) : null}
        </div>

        <div className="space-y-6">
          <section aria-labelledby="asignar" className="card" id="asignar-socios">
            <h2 id="asignar" className="text-lg font-semibold">
              Socios asignados ({d.assignments.length})
            </h2>
            {d.assignments.length ? (
              <ul className="mt-2 space-y-1 text-sm">
                {d.assignments.map((a) => (
                  <li key={a.id}>
                    {a.company_name || `${a.first_name} ${a.last_name}`}{" "}
                    <span className="text-slate-600">· {formatDate(a.assigned_at)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-slate-700">Ningún socio asignado todavía.</p>
            )}
            {canAssignPartner(status) ? (
              <Form method="post" className="mt-4 space-y-2">
                <input type="hidden" name="intent" value="assign" />
                <label htmlFor="partner_id" className="label">
                  Asignar socio
                </label>
                <select
                  id="partner_id"
                  name="partner_id"
                  className="input"
                  required
                  defaultValue=""
                >
                  <option value="" disabled>
                    Elige un socio…
                  </option>
                  {d.partners.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.company_name
                        ? `${p.company_name} (${p.first_name} ${p.last_name})`
                        : `${p.first_name} ${p.last_name}`}
                    </option>
                  ))}
                </select>
                <button type="submit" className="btn-primary w-full" disabled={busy}>
                  Asignar
                </button>
              </Form>
            ) : null}
          </section>

          <section aria-labelledby="estado" className="card">
            <h2 id="estado" className="text-lg font-semibold">
              Cambiar estado
            </h2>
            <Form method="post" className="mt-3 space-y-2">
              <input type="hidden" name="intent" value="set_status" />
              <label htmlFor="status" className="label">
                Estado
              </label>
              <select id="status" name="status" className="input" defaultValue={status}>
                {REQUEST_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
              <label htmlFor="status-note" className="label">
                Nota (opcional)
              </label>
              <input id="status-note" name="note" className="input" maxLength={500} />
              <button type="submit" className="btn-secondary w-full" disabled={busy}>
                Actualizar estado
              </button>
            </Form>
          </section>

          <section aria-labelledby="notas" className="card">
            <h2 id="notas" className="text-lg font-semibold">
              Notas para el comprador
            </h2>
            <Form method="post" className="mt-3 space-y-2">
              <input type="hidden" name="intent" value="notes" />
              <label htmlFor="admin_notes" className="sr-only">
                Notas del administrador
              </label>
              <textarea
                id="admin_notes"
                name="admin_notes"
                rows={4}
                maxLength={5000}
                className="input"
                defaultValue={request.admin_notes ?? ""}
              />
              <button type="submit" className="btn-secondary w-full" disabled={busy}>
                Guardar notas
              </button>
            </Form>
          </section>

          <section aria-labelledby="historial" className="card">
            <h2 id="historial" className="mb-3 text-lg font-semibold">
              Historial
            </h2>
            <Timeline entries={d.history} />
          </section>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFoundPanel
        title="Cotización no encontrada"
        backTo="/admin/quotes"
        backLabel="Volver a Cotizaciones"
      />
    );
  }
  throw error;
}
