import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Field, FormAlert, SelectField, FormErrors, TextAreaField } from "~/components/ui/Field";
import { MAX_PAYMENT_INSTRUCTIONS } from "~/domain/payment-instructions";
import { centsToInput } from "~/domain/money";
import { CURRENCY_LABELS, SUPPORTED_CURRENCIES } from "~/domain/currencies";
import { settingsFormSchema } from "~/domain/settings-form";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { amountsRecorded, getSettings, saveSettings } from "~/services/settings.server";
import { listRewards, setRewardAvailability } from "~/models/loyalty.server";
import { serverForm } from "~/utils/server-form";
import { idField } from "~/domain/validation";
import { readForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { formatNumber } from "~/utils/format";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Configuración · Administración · CotizaHub",
    "Comisión, moneda, límites y recompensas de la plataforma.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [settings, rewards, currencyLocked] = await Promise.all([
    getSettings(db),
    listRewards(db),
    amountsRecorded(db),
  ]);
  return {
    rewards,
    currencyLocked,
    defaults: {
      sessionTimeoutMinutes: String(settings.sessionTimeoutMinutes),
      maxLoginAttempts: String(settings.maxLoginAttempts),
      defaultCommission: String(settings.defaultCommission),
      loyaltyPointsPerUnit: String(settings.loyaltyPointsPerUnit),
      minQuoteAmount: centsToInput(settings.minQuoteAmountCents),
      quoteDays: String(settings.quoteDays),
      defaultTaxRate: String(settings.defaultTaxRate),
      currency: settings.currency,
      paymentInstructions: settings.paymentInstructions,
    },
  };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function rewardSchema() {
  return z.object({
    reward_id: idField("La recompensa no existe."),
    available: z.enum(["0", "1"]).transform((v) => v === "1"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const formData = await readForm(request);
  if (formData.get("intent") === "reward") {
    const submission = parseWithZod(formData, { schema: rewardSchema() });
    if (submission.status !== "success") return invalidForm(submission);
    const { reward_id, available } = submission.value;
    const result = await setRewardAvailability(db, reward_id, available);
    return respond(result, submission, () => ({
      to: paths.admin.settings(),
      toast: {
        type: "success",
        title: "Éxito",
        description: available
          ? "Recompensa disponible para canje"
          : "Recompensa marcada como no disponible",
      },
    }));
  }
  const submission = parseWithZod(formData, { schema: settingsFormSchema });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await saveSettings(db, submission.value);
  return respond(result, submission, () => ({
    to: paths.admin.settings(),
    toast: { type: "success", title: "Éxito", description: "Configuración guardada" },
  }));
}

export default function AdminSettings() {
  const { defaults, currencyLocked, rewards } = useLoaderData<typeof loader>();
  return (
    <>
      {/* A new form state once saved values come back, so the fields show what is stored. */}
      <SettingsForm
        key={JSON.stringify(defaults)}
        defaults={defaults}
        currencyLocked={currencyLocked}
      />
      <RewardsAvailability rewards={rewards} />
    </>
  );
}

/** DECISIONS §3: admins mark a reward unavailable; buyers then see it as such and cannot redeem it. */
function RewardsAvailability({
  rewards,
}: {
  rewards: ReturnType<typeof useLoaderData<typeof loader>>["rewards"];
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="recompensas" className="card mt-6 max-w-3xl">
      <h2 id="recompensas" className="text-lg font-semibold">
        Recompensas del programa de lealtad
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Las recompensas que canjean los compradores se entregan desde{" "}
        <Link to={paths.admin.redemptions()} className="btn-link">
          Canjes de recompensas
        </Link>
        .
      </p>
      <ul className="mt-3 divide-y divide-slate-200">
        {rewards.map((reward) => (
          <li key={reward.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">{reward.name}</p>
              <p className="text-sm text-slate-700">
                {formatNumber(reward.points_cost)} puntos ·{" "}
                {reward.is_available ? "Disponible" : "No disponible"}
              </p>
            </div>
            <Form method="post">
              <input type="hidden" name="intent" value="reward" />
              <input type="hidden" name="reward_id" value={reward.id} />
              <input type="hidden" name="available" value={reward.is_available ? "0" : "1"} />
              <button type="submit" className="btn-secondary" disabled={busy}>
                {reward.is_available ? "Marcar no disponible" : "Marcar disponible"}
                <span className="sr-only"> {reward.name}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

type SettingName =
  | "sessionTimeoutMinutes"
  | "maxLoginAttempts"
  | "defaultCommission"
  | "loyaltyPointsPerUnit"
  | "minQuoteAmount"
  | "quoteDays"
  | "defaultTaxRate";

const SETTING_GROUPS: {
  legend: string;
  fields: { name: SettingName; label: string; inputMode: "numeric" | "decimal"; hint: string }[];
}[] = [
  {
    legend: "Seguridad",
    fields: [
      {
        name: "sessionTimeoutMinutes",
        label: "Tiempo de sesión (minutos)",
        inputMode: "numeric",
        hint: "La sesión se cierra tras este tiempo sin actividad (5 a 43200).",
      },
      {
        name: "maxLoginAttempts",
        label: "Máximo de intentos de inicio de sesión",
        inputMode: "numeric",
        hint: "Tras este número de fallos, el correo queda bloqueado 15 minutos.",
      },
    ],
  },
  {
    legend: "Negocio",
    fields: [
      {
        name: "defaultCommission",
        label: "Comisión por defecto (%)",
        inputMode: "decimal",
        hint: "Se aplica a las nuevas cotizaciones oficiales (0 a 100).",
      },
      {
        name: "loyaltyPointsPerUnit",
        label: "Puntos de lealtad por unidad de moneda",
        inputMode: "decimal",
        hint: "Puntos que gana el comprador por cada unidad pagada.",
      },
      {
        name: "minQuoteAmount",
        label: "Monto mínimo de cotización",
        inputMode: "decimal",
        hint: "Las cotizaciones por debajo de este monto se rechazan. Usa punto o coma.",
      },
      {
        name: "quoteDays",
        label: "Días para cotizar",
        inputMode: "numeric",
        hint: "Plazo por defecto que tienen los socios para enviar su oferta en una nueva solicitud (1 a 60).",
      },
      {
        name: "defaultTaxRate",
        label: "IVA por defecto (%)",
        inputMode: "decimal",
        hint: "Impuesto con el que empieza cada oferta de socio; el socio puede cambiarlo (0 a 100).",
      },
    ],
  },
];

function SettingsForm({
  defaults,
  currencyLocked,
}: {
  defaults: ReturnType<typeof useLoaderData<typeof loader>>["defaults"];
  currencyLocked: boolean;
}) {
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result, defaults);
  const busy = useNavigation().state === "submitting";
  return (
    <div className="max-w-3xl">
      <h1 className="page-title">Configuración</h1>
      <p className="mt-1 text-slate-700">
        Estos valores se aplican de inmediato en toda la plataforma.
      </p>
      <Form method="post" noValidate className="mt-6 space-y-6">
        <FormErrors errors={form.formErrors} />
        {actionData?.result?.status === "error" ? (
          <FormAlert title="No se guardó la configuración">
            Corrige los campos marcados y vuelve a intentarlo.
          </FormAlert>
        ) : null}
        {SETTING_GROUPS.map((group) => (
          <fieldset key={group.legend} className="card grid gap-4 sm:grid-cols-2">
            <legend className="px-1 text-lg font-semibold">{group.legend}</legend>
            {group.fields.map(({ name, ...field }) => (
              <Field key={name} {...form.field(name)} {...field} type="text" />
            ))}
            {group.legend === "Negocio" ? (
              <SelectField
                label="Moneda de la plataforma"
                {...form.field("currency")}
                hint={
                  currencyLocked
                    ? "Ya hay montos registrados en esta moneda (ofertas, cotizaciones oficiales, pagos o precios del catálogo): cambiarla los reetiquetaría sin convertirlos, así que ya no se puede cambiar."
                    : "Solo se puede elegir mientras no haya ningún monto registrado."
                }
              >
                {/* Once locked, the stored currency is the only choice (the server refuses others). */}
                {(currencyLocked ? [defaults.currency] : SUPPORTED_CURRENCIES).map((c) => (
                  <option key={c} value={c}>
                    {CURRENCY_LABELS[c as keyof typeof CURRENCY_LABELS] ?? c}
                  </option>
                ))}
              </SelectField>
            ) : null}
          </fieldset>
        ))}
        <fieldset className="card">
          <legend className="px-1 text-lg font-semibold">Pagos</legend>
          <TextAreaField
            label="Instrucciones de pago"
            {...form.field("paymentInstructions")}
            rows={5}
            maxLength={MAX_PAYMENT_INSTRUCTIONS}
            hint={`Dónde y cómo paga el comprador: banco, cuenta, beneficiario. Se muestran junto a cada monto por pagar y en el PDF de la cotización oficial, con el número de solicitud como referencia. Hasta ${formatNumber(MAX_PAYMENT_INSTRUCTIONS)} caracteres.`}
          />
        </fieldset>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Guardando…" : "Guardar configuración"}
        </button>
      </Form>
    </div>
  );
}
