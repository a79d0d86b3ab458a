import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { LEDGER_PAGE_SIZE } from "~/domain/pagination";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge } from "~/components/ui/Badge";
import { FormAlert } from "~/components/ui/Field";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { ProgressBar } from "~/components/ui/ProgressBar";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { tierFor, TIERS } from "~/domain/loyalty";
import { listLedger, listRewards, loyaltySummary, redeemReward } from "~/models/loyalty.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { formatDate, formatNumber } from "~/utils/format";
import { idField } from "~/domain/validation";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Recompensas · CotizaHub",
    "Tus puntos de lealtad, tu nivel y las recompensas que puedes canjear.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const page = pageFromUrl(new URL(request.url));
  const [summary, rewards, ledger, settings] = await Promise.all([
    loyaltySummary(db, user.id),
    listRewards(db),
    listLedger(db, user.id, page),
    getSettings(db),
  ]);
  return {
    summary,
    rewards,
    ledger,
    page,
    pointsPerUnit: settings.loyaltyPointsPerUnit,
    currency: settings.currency,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const schema = z.object({
    intent: z.literal("redeem", { errorMap: () => ({ message: "Recompensa no válida." }) }),
    reward_id: idField("Recompensa no válida."),
  });
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await redeemReward(db, { buyerId: user.id, rewardId: submission.value.reward_id });
  return respond(result, submission, ({ rewardName, balance }) => ({
    to: paths.buyer.rewards(),
    toast: {
      type: "success",
      title: "¡Recompensa canjeada!",
      description: `Canjeaste «${rewardName}». Te quedan ${formatNumber(balance)} puntos; nuestro equipo te contactará para aplicarla.`,
    },
  }));
}

export default function Rewards() {
  const { summary, rewards, ledger, page, pointsPerUnit, currency } =
    useLoaderData<typeof loader>();
  const refused = serverForm(useActionData<typeof action>()?.result);
  const refusedReward = refused.field("reward_id").defaultValue;
  const busy = useNavigation().state === "submitting";
  const tier = tierFor(summary.earned);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="page-title">Recompensas</h1>
        <p className="mt-1 text-slate-700">
          Ganas {formatNumber(pointsPerUnit, 3)} {pointsPerUnit === 1 ? "punto" : "puntos"} por cada
          unidad ({currency}) pagada y confirmada.
        </p>
      </div>

      <StatGrid>
        <StatCard label="Puntos disponibles" value={formatNumber(summary.balance)} />
        <StatCard label="Puntos este mes" value={formatNumber(summary.pointsThisMonth)} />
        <StatCard label="Cotizaciones pagadas" value={summary.paidQuotes} />
        <StatCard label="Recompensas canjeadas" value={summary.rewardsRedeemed} />
      </StatGrid>

      <section aria-labelledby="nivel" className="card">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="nivel" className="text-lg font-semibold">
            Nivel {tier.current.name}
          </h2>
          <span className="text-sm text-slate-700">
            {formatNumber(summary.earned)} puntos acumulados
          </span>
        </div>
        {tier.next ? (
          <div className="mt-3 space-y-2">
            <ProgressBar value={tier.progress} label={`Progreso hacia ${tier.next.name}`} />
            <p className="text-sm text-slate-700">
              Te faltan {formatNumber(tier.pointsToNext)} puntos para el nivel {tier.next.name}.
            </p>
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-700">Alcanzaste el nivel más alto.</p>
        )}
        <ol className="mt-4 grid grid-cols-2 gap-2 text-center text-sm sm:grid-cols-4">
          {TIERS.map((t) => (
            <li
              key={t.name}
              className={`rounded-md p-2 ring-1 ${t.name === tier.current.name ? "bg-brand-50 font-semibold ring-brand-300" : "ring-slate-200"}`}
            >
              {t.name}
              <span className="block text-xs text-slate-600">{formatNumber(t.min)}+ puntos</span>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="catalogo">
        <h2 id="catalogo" className="text-lg font-semibold">
          Canjea tus puntos
        </h2>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2">
          {rewards.map((reward) => {
            const affordable = summary.balance >= reward.points_cost;
            return (
              <li key={reward.id} className="card flex flex-col justify-between gap-3">
                <div>
                  <div className="flex items-start justify-between gap-2">
                    <h3 className="font-semibold">{reward.name}</h3>
                    {reward.is_available ? (
                      <Badge tone="blue">{formatNumber(reward.points_cost)} puntos</Badge>
                    ) : (
                      <Badge>No disponible</Badge>
                    )}
                  </div>
                  <p className="mt-1 text-sm text-slate-700">{reward.description}</p>
                </div>
                {refused.formErrors && refusedReward === String(reward.id) ? (
                  <FormAlert title="No se pudo canjear">{refused.formErrors.join(" ")}</FormAlert>
                ) : null}
                {reward.is_available ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="redeem" />
                    <input type="hidden" name="reward_id" value={reward.id} />
                    <button
                      type="submit"
                      className={affordable ? "btn-primary w-full" : "btn-secondary w-full"}
                      disabled={busy}
                    >
                      Canjear<span className="sr-only"> {reward.name}</span>
                    </button>
                    {!affordable ? (
                      <p className="mt-1 text-xs text-slate-600">
                        Te faltan {formatNumber(reward.points_cost - summary.balance)} puntos.
                      </p>
                    ) : null}
                  </Form>
                ) : (
                  <p className="text-sm text-slate-600">
                    Esta recompensa no está disponible por ahora.
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="historial">
        <h2 id="historial" className="text-lg font-semibold">
          Historial de puntos
        </h2>
        {ledger.rows.length === 0 ? (
          <p className="mt-3 text-sm text-slate-700">
            Aún no tienes movimientos. Ganarás puntos con cada pago confirmado.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {ledger.rows.map((entry) => (
              <li key={entry.id} className="flex items-center justify-between gap-2 p-3 text-sm">
                <span>
                  {entry.description}
                  <span className="block text-xs text-slate-600">
                    {formatDate(entry.created_at)}
                  </span>
                </span>
                <span
                  className={`font-semibold ${entry.points >= 0 ? "text-green-800" : "text-red-800"}`}
                >
                  {entry.points >= 0 ? "+" : ""}
                  {formatNumber(entry.points)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pagination page={page} pageSize={LEDGER_PAGE_SIZE} total={ledger.total} />
      </section>
    </div>
  );
}
