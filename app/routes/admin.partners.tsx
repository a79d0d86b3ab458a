import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Notice } from "~/components/admin/Notice";
import { SearchBar } from "~/components/admin/SearchBar";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { STATUS_LABELS } from "~/domain/quote-status";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import {
  listAssignableRequests,
  listPartnersForAdmin,
  setPartnerFeatured,
} from "~/models/partner-admin.server";
import { assignPartner } from "~/models/quote-lifecycle.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { idFrom } from "~/utils/ids";
import { searchFromUrl } from "~/utils/like";
import { idField } from "~/domain/validation";
import { intents, readForm } from "~/services/form.server";
import { invalidForm, respond, samePage } from "~/services/respond.server";
import { formatDate } from "~/utils/format";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Socios · Administración · CotizaHub",
    "Socios proveedores: carga de trabajo, socios destacados y asignación de solicitudes.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const page = pageFromUrl(url);
  const { partners, total } = await listPartnersForAdmin(db, { q, page });
  // The assignment form is open on one card at a time (the one asked for, or the only one a
  // search found): forty requests in every card's list made the page 200 KB.
  const asked = idFrom(url.searchParams.get("asignar"));
  const open = partners.length === 1 ? partners[0]!.id : asked;
  const requests =
    open !== null && partners.some((p) => p.id === open)
      ? await listAssignableRequests(db, open)
      : [];
  return { partners, total, requests, open, q, page };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  const partnerId = idField("Socio no encontrado.");
  return intents([
    z.object({
      intent: z.literal("featured"),
      partnerId,
      featured: z.enum(["0", "1"]).transform((v) => v === "1"),
    }),
    z.object({
      intent: z.literal("assign"),
      partnerId,
      requestId: idField("Elige una solicitud para asignar."),
    }),
  ]);
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const done = (description: string) => () => ({
    to: samePage(request),
    toast: { type: "success" as const, title: "Éxito", description },
  });
  if (input.intent === "featured") {
    const result = await setPartnerFeatured(db, input);
    return respond(
      result,
      submission,
      done(input.featured ? "Partner destacado" : "Partner removido de destacados"),
    );
  }
  const result = await assignPartner(db, { ...input, adminId: admin.id });
  return respond(result, submission, done("Socio asignado a la solicitud."));
}

export default function AdminPartners() {
  const { partners, total, requests, open, q, page } = useLoaderData<typeof loader>();
  const openHref = (partnerId: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (page > 1) params.set("page", String(page));
    params.set("asignar", String(partnerId));
    return `?${params}#socio-${partnerId}`;
  };
  const actionData = useActionData<typeof action>();
  return (
    <div>
      <h1 className="page-title">Socios</h1>
      <p className="mt-1 text-slate-700">
        Destaca socios en la página de inicio y asígnales solicitudes de cotización.
      </p>
      <Notice
        reply={actionData}
        failed={
          actionData?.result.initialValue?.intent === "assign"
            ? "No se pudo asignar el partner."
            : "No se pudo actualizar el partner."
        }
      />
      <SearchBar q={q} label="Buscar socios por nombre, correo o empresa" />
      <p className="mt-4 text-sm text-slate-700">
        {total} {total === 1 ? "socio" : "socios"}
      </p>
      {partners.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No se encontraron socios" />
        </div>
      ) : (
        <ul className="mt-4 grid gap-4 lg:grid-cols-2">
          {partners.map((partner) => {
            const contact = `${partner.first_name} ${partner.last_name}`;
            const title = partner.company_name?.trim() || contact;
            return (
              <li
                key={partner.id}
                id={`socio-${partner.id}`}
                className="card"
                data-testid={`partner-${partner.id}`}
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
                    <p className="text-sm text-slate-700">{contact}</p>
                    <p className="break-all text-sm">
                      <a href={`mailto:${partner.email}`} className="btn-link">
                        {partner.email}
                      </a>
                    </p>
                    {partner.phone ? (
                      <p className="text-sm">
                        <a
                          href={`tel:${partner.phone.replace(/[^\d+]/g, "")}`}
                          className="btn-link"
                        >
                          {partner.phone}
                        </a>
                      </p>
                    ) : null}
                  </div>
                  <div className="flex items-center gap-2">
                    {partner.deactivated_at ? (
                      <Badge tone="gray">Cuenta desactivada</Badge>
                    ) : partner.invitation_pending ? (
                      <Badge tone="yellow">Invitación pendiente</Badge>
                    ) : null}
                    {partner.is_featured_partner ? <Badge tone="green">Destacado</Badge> : null}
                    {/* Only an active, activated account joins the landing; any may leave it. */}
                    {(partner.deactivated_at || partner.invitation_pending) &&
                    !partner.is_featured_partner ? null : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="featured" />
                        <input type="hidden" name="partnerId" value={partner.id} />
                        <input
                          type="hidden"
                          name="featured"
                          value={partner.is_featured_partner ? "0" : "1"}
                        />
                        {/* The shown words start the name (WCAG 2.5.3); whose card, for
                            screen readers, follows them. */}
                        <button type="submit" className="btn-secondary px-3 py-1.5">
                          {partner.is_featured_partner ? "Quitar de destacados" : "Destacar"}
                          <span className="sr-only"> a {title}</span>
                        </button>
                      </Form>
                    )}
                  </div>
                </div>
                <dl className="mt-4 grid grid-cols-3 gap-2 text-center text-sm">
                  <div className="rounded-md bg-slate-50 p-2">
                    <dt className="text-slate-700">Asignadas</dt>
                    <dd className="text-lg font-bold">{partner.assigned}</dd>
                  </div>
                  <div className="rounded-md bg-slate-50 p-2">
                    <dt className="text-slate-700">Cotizadas</dt>
                    <dd className="text-lg font-bold">{partner.quoted}</dd>
                  </div>
                  <div className="rounded-md bg-slate-50 p-2">
                    <dt className="text-slate-700">Ganadas</dt>
                    <dd className="text-lg font-bold">{partner.won}</dd>
                  </div>
                </dl>
                <div className="mt-4">
                  {partner.deactivated_at ? (
                    <p className="text-sm text-slate-700">
                      Cuenta desactivada el {formatDate(partner.deactivated_at)}: no recibe
                      solicitudes nuevas.
                    </p>
                  ) : partner.id === open ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="assign" />
                      <input type="hidden" name="partnerId" value={partner.id} />
                      <label htmlFor={`assign-${partner.id}`} className="label">
                        Asignar solicitud a {title}
                      </label>
                      <div className="flex gap-2">
                        <select
                          id={`assign-${partner.id}`}
                          name="requestId"
                          required
                          className="input min-w-0"
                          defaultValue=""
                          disabled={requests.length === 0}
                        >
                          <option value="" disabled>
                            {requests.length
                              ? "Elige una solicitud"
                              : "No hay solicitudes por asignar"}
                          </option>
                          {requests.map((r) => (
                            <option key={r.id} value={r.id}>
                              #{r.id} · {r.title} ({STATUS_LABELS[r.status]})
                            </option>
                          ))}
                        </select>
                        <button
                          type="submit"
                          className="btn-primary"
                          disabled={requests.length === 0}
                        >
                          Asignar
                        </button>
                      </div>
                    </Form>
                  ) : (
                    <Link to={openHref(partner.id)} className="btn-secondary">
                      Asignar solicitud<span className="sr-only"> a {title}</span>
                    </Link>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={page} pageSize={ADMIN_PAGE_SIZE} total={total} />
    </div>
  );
}
