import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { LEDGER_PAGE_SIZE } from "~/domain/pagination";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { FormToken } from "~/components/FormToken";
import { Badge } from "~/components/ui/Badge";
import { FormAlert } from "~/components/ui/Field";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { ProgressBar } from "~/components/ui/ProgressBar";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { tierFor, TIERS } from "~/domain/loyalty";
import {
  listLedger,
  listRewards,
  loyaltySummary,
  previewRedemption,
  redeemReward,
} from "~/models/loyalty.server";
import { listBuyerRedemptions } from "~/models/redemption.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import {
  formTokenOf,
  FormTokenAlreadyUsed,
  newFormToken,
  usedFormToken,
} from "~/services/form-token.server";
import { invalidForm, respond } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { countOf, formatDate, formatNumber } from "~/utils/format";
import { idField } from "~/domain/validation";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

/** The query parameter that opens the confirmation of one reward's redemption. */
const CONFIRM_PARAM = "canjear";
/** The buyer's latest redemptions shown with their state (the ledger holds every one). */
const REDEMPTIONS_SHOWN = 10;

export const meta: MetaFunction = ({ location }) =>
  new URLSearchParams(location.search).has(CONFIRM_PARAM)
    ? pageMeta(
        "Confirmar canje · Recompensas · CotizaHub",
        "Revisa la recompensa, sus puntos y tu saldo después del canje antes de confirmarlo.",
      )
    : pageMeta(
        "Recompensas · CotizaHub",
        "Tus puntos de lealtad, tu nivel, tus canjes y las recompensas que puedes canjear.",
      );

/** `?canjear=<id>`: the reward to confirm, as the buyer would redeem it now (or why not). */
async function confirmationFor(url: URL, buyerId: number) {
  const raw = url.searchParams.get(CONFIRM_PARAM);
  if (raw === null) return null;
  const rewardId = idField("La recompensa no existe.").safeParse(raw);
  const preview = rewardId.success
    ? await previewRedemption(db, { buyerId, rewardId: rewardId.data })
    : ({ ok: false, message: "La recompensa no existe." } as const);
  return preview.ok
    ? { ok: true as const, ...preview.value, formToken: newFormToken() }
    : { ok: false as const, message: preview.message };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const url = new URL(request.url);
  const page = pageFromUrl(url);
  const [summary, rewards, ledger, redemptions, settings, confirmation] = await Promise.all([
    loyaltySummary(db, user.id),
    listRewards(db),
    listLedger(db, user.id, page),
    listBuyerRedemptions(db, user.id, REDEMPTIONS_SHOWN),
    getSettings(db),
    confirmationFor(url, user.id),
  ]);
  return {
    summary,
    rewards,
    ledger,
    redemptions,
    confirmation,
    page,
    pointsPerUnit: settings.loyaltyPointsPerUnit,
    currency: settings.currency,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const form = await readForm(request);
  // A second click on "Confirmar canje" (or a resend after a slow answer) lands where the first did.
  const formToken = formTokenOf(form);
  const earlier = await usedFormToken(db, formToken);
  if (earlier) return redirect(earlier);
  const schema = z.object({
    intent: z.literal("redeem", { errorMap: () => ({ message: "Recompensa no válida." }) }),
    reward_id: idField("Recompensa no válida."),
  });
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return invalidForm(submission);
  let result;
  try {
    result = await redeemReward(db, {
      buyerId: user.id,
      rewardId: submission.value.reward_id,
      formToken,
    });
  } catch (error) {
    if (error instanceof FormTokenAlreadyUsed)
      return redirect((await usedFormToken(db, formToken)) ?? paths.buyer.rewards());
    throw error;
  }
  return respond(result, submission, ({ rewardName, balance }) => ({
    to: paths.buyer.rewards(),
    toast: {
      type: "success",
      title: "¡Recompensa canjeada!",
      description: `Canjeaste «${rewardName}». Te quedan ${formatNumber(balance)} puntos; nuestro equipo te contactará para entregarla y verás su estado en «Mis canjes».`,
    },
  }));
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Rewards() {
  const { summary, rewards, ledger, redemptions, confirmation, page, pointsPerUnit, currency } =
    useLoaderData<typeof loader>();
  const refused = serverForm(useActionData<typeof action>()?.result);
  const refusedReward = refused.field("reward_id").defaultValue;
  const tier = tierFor(summary.earned);
  if (confirmation) {
    return <ConfirmRedemption confirmation={confirmation} refusal={refused.formErrors} />;
  }
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
                  // Leads to the confirmation (a GET): no points are spent until it is confirmed.
                  <Form method="get" action={paths.buyer.rewards()}>
                    <input type="hidden" name={CONFIRM_PARAM} value={reward.id} />
                    <button
                      type="submit"
                      className={affordable ? "btn-primary w-full" : "btn-secondary w-full"}
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

      <MyRedemptions redemptions={redemptions} total={summary.rewardsRedeemed} />

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

/** The buyer's latest redemptions and where each stands (operators deliver them). */
function MyRedemptions({
  redemptions,
  total,
}: {
  redemptions: LoaderData["redemptions"];
  total: number;
}) {
  return (
    <section aria-labelledby="mis-canjes">
      <h2 id="mis-canjes" className="text-lg font-semibold">
        Mis canjes
      </h2>
      {redemptions.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">
          Aún no has canjeado recompensas. Cuando canjees una, verás aquí si ya fue entregada.
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {redemptions.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
              data-testid={`mi-canje-${r.id}`}
            >
              <span>
                <span className="font-medium">{r.reward_name}</span>
                <span className="block text-xs text-slate-600">
                  {countOf(r.points, "punto", "puntos")} · canjeada el {formatDate(r.created_at)}
                </span>
              </span>
              {r.status === "delivered" ? (
                <Badge tone="green">Entregada el {formatDate(r.delivered_at)}</Badge>
              ) : (
                <Badge tone="yellow">Pendiente de entrega</Badge>
              )}
            </li>
          ))}
        </ul>
      )}
      {total > redemptions.length ? (
        <p className="mt-2 text-xs text-slate-600">
          Se muestran tus {redemptions.length} canjes más recientes de {formatNumber(total)}; el
          historial de puntos los incluye todos.
        </p>
      ) : null}
    </section>
  );
}

/**
 * The step between "Canjear" and spending points: what is redeemed, for how many points, and the
 * balance left. "Confirmar canje" posts the redemption (the server checks everything again);
 * "Cancelar" goes back without changing anything.
 */
function ConfirmRedemption({
  confirmation,
  refusal,
}: {
  confirmation: NonNullable<LoaderData["confirmation"]>;
  refusal: string[] | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const problem = refusal?.join(" ") ?? (confirmation.ok ? null : confirmation.message);
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="page-title">Confirmar canje</h1>
      {problem || !confirmation.ok ? (
        <div className="card space-y-4">
          <FormAlert title="No se puede canjear">{problem}</FormAlert>
          <Link to={paths.buyer.rewards()} className="btn-secondary">
            Volver a Recompensas
          </Link>
        </div>
      ) : (
        <section aria-labelledby="canje-resumen" className="card space-y-4">
          <h2 id="canje-resumen" className="text-lg font-semibold">
            {confirmation.reward.name}
          </h2>
          <p className="text-sm text-slate-700">{confirmation.reward.description}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-700">Puntos del canje</dt>
            <dd className="font-medium tabular-nums" data-testid="canje-puntos">
              {formatNumber(confirmation.reward.points_cost)} puntos
            </dd>
            <dt className="text-slate-700">Saldo actual</dt>
            <dd className="tabular-nums" data-testid="canje-saldo">
              {formatNumber(confirmation.balance)} puntos
            </dd>
            <dt className="text-slate-700">Saldo después del canje</dt>
            <dd className="font-semibold tabular-nums" data-testid="canje-saldo-despues">
              {formatNumber(confirmation.balanceAfter)} puntos
            </dd>
          </dl>
          <p className="text-sm text-slate-700">
            Los puntos se descuentan al confirmar. Nuestro equipo te contactará para entregar la
            recompensa y verás su estado en «Mis canjes».
          </p>
          <Form method="post" className="flex flex-wrap gap-3">
            <FormToken value={confirmation.formToken} />
            <input type="hidden" name="intent" value="redeem" />
            <input type="hidden" name="reward_id" value={confirmation.reward.id} />
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Canjeando…" : "Confirmar canje"}
            </button>
            <Link to={paths.buyer.rewards()} className="btn-secondary">
              Cancelar
            </Link>
          </Form>
        </section>
      )}
    </div>
  );
}
