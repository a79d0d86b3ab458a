import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";
import { z } from "zod";
import { Notice } from "~/components/admin/Notice";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { NotFoundPanel } from "~/components/NotFoundPanel";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { StatCard } from "~/components/ui/StatCard";
import { idField } from "~/domain/validation";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { requireRole } from "~/models/auth.server";
import { deliverRedemption, listRedemptionsForAdmin } from "~/models/redemption.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, respond, samePage } from "~/services/respond.server";
import { countOf, formatDateTime, formatNumber } from "~/utils/format";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";

export const meta: MetaFunction = () =>
  pageMeta(
    "Canjes de recompensas · Administración · CotizaHub",
    "Recompensas canjeadas por los compradores, pendientes de entrega y entregadas.",
  );

/** Reward fulfilment (DECISIONS §3 "Rewards are real"): buyers redeem, operators deliver here. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const page = pageFromUrl(new URL(request.url));
  return { ...(await listRedemptionsForAdmin(db, { page })), page };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return z.object({
    intent: z.literal("deliver", { errorMap: () => ({ message: "Acción no reconocida." }) }),
    redemption_id: idField("Canje no encontrado"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await deliverRedemption(db, {
    redemptionId: submission.value.redemption_id,
    adminId: admin.id,
  });
  return respond(result, submission, ({ rewardName, buyerName }) => ({
    to: samePage(request),
    toast: {
      type: "success",
      title: "Éxito",
      description: `«${rewardName}» de ${buyerName} quedó entregada. Avisamos al comprador.`,
    },
  }));
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["pending"][number];

export default function AdminRedemptions() {
  const { pending, delivered, counts, total, page } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <div>
        <h1 className="page-title">Canjes de recompensas</h1>
        <p className="mt-1 text-slate-700">
          Recompensas que los compradores canjearon con sus puntos. Entrégalas y márcalas como
          entregadas: el comprador recibe un aviso y un correo.
        </p>
        <p className="mt-1 text-sm">
          <Link to={paths.admin.settings()} className="btn-link">
            Configurar las recompensas del programa
          </Link>
        </p>
      </div>
      <div className="grid grid-cols-2 gap-4 sm:max-w-md">
        <StatCard label="Pendientes de entrega" value={formatNumber(counts.pending)} />
        <StatCard label="Entregadas" value={formatNumber(counts.delivered)} />
      </div>
      <Notice reply={reply} failed="No se pudo marcar como entregada." />

      {total === 0 ? (
        <EmptyState title="Aún no hay canjes">
          Cuando un comprador canjee una recompensa, aparecerá aquí.
        </EmptyState>
      ) : null}

      {pending.length > 0 ? (
        <section aria-labelledby="pendientes" className="space-y-3">
          <h2 id="pendientes" className="text-lg font-semibold">
            Pendientes de entrega
            <span className="font-normal text-slate-700"> · más antiguos primero</span>
          </h2>
          <ul className="space-y-3">
            {pending.map((row) => (
              <RedemptionItem key={row.id} row={row}>
                <Form method="post" className="mt-3">
                  <input type="hidden" name="intent" value="deliver" />
                  <input type="hidden" name="redemption_id" value={row.id} />
                  <button type="submit" className="btn-primary" disabled={busy}>
                    Marcar como entregada
                    <span className="sr-only">
                      {" "}
                      {row.reward_name} de {row.buyer_first_name} {row.buyer_last_name}
                    </span>
                  </button>
                </Form>
              </RedemptionItem>
            ))}
          </ul>
        </section>
      ) : total > 0 && page === 1 ? (
        <p className="card text-slate-700">No hay canjes pendientes de entrega.</p>
      ) : null}

      {delivered.length > 0 ? (
        <section aria-labelledby="entregadas" className="space-y-3">
          <h2 id="entregadas" className="text-lg font-semibold">
            Entregadas
            <span className="font-normal text-slate-700"> · más recientes primero</span>
          </h2>
          <ul className="space-y-3">
            {delivered.map((row) => (
              <RedemptionItem key={row.id} row={row} />
            ))}
          </ul>
        </section>
      ) : null}

      {/* The page size from ~/domain: a constant from a .server module is undefined in the browser. */}
      <Pagination page={page} pageSize={ADMIN_PAGE_SIZE} total={total} />
    </div>
  );
}

function RedemptionItem({ row, children }: { row: Row; children?: ReactNode }) {
  return (
    <li className="card" data-testid={`canje-${row.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-slate-900">{row.reward_name}</h3>
          <p className="text-sm text-slate-700">
            {countOf(row.points, "punto", "puntos")} · canjeada el {formatDateTime(row.created_at)}
          </p>
        </div>
        {row.status === "pending" ? (
          <Badge tone="yellow">Pendiente de entrega</Badge>
        ) : (
          <Badge tone="green">Entregada</Badge>
        )}
      </div>
      <p className="mt-2 text-sm text-slate-800">
        {row.buyer_first_name} {row.buyer_last_name} ·{" "}
        {row.buyer_company || "Empresa no especificada"} ·{" "}
        <a href={`mailto:${row.buyer_email}`} className="btn-link break-all">
          {row.buyer_email}
        </a>
      </p>
      {row.status === "delivered" ? (
        <p className="mt-1 text-sm text-slate-700">
          Entregada el {formatDateTime(row.delivered_at)}
          {row.delivered_by_first_name
            ? ` por ${row.delivered_by_first_name} ${row.delivered_by_last_name}`
            : ""}
        </p>
      ) : null}
      {children}
    </li>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <NotFoundPanel
            title="Canje no encontrado"
            message="No existe o ya no está disponible."
            backTo={paths.admin.redemptions()}
            backLabel="Volver a Canjes de recompensas"
          />
        ),
      }}
    />
  );
}
