import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FieldErrors, FormAlert } from "~/components/ui/Field";
import { centsToInput } from "~/domain/money";
import { SUPPORTED_CURRENCIES } from "~/domain/settings";
import { CURRENCY_LABELS, settingsFormSchema } from "~/domain/settings-form";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { getSettings, saveSettings } from "~/services/settings.server";
import { redirectWithToast } from "~/utils/toast-redirect.server";

export const meta: MetaFunction = () => [{ title: "Configuración · Administración · CotizaHub" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const settings = await getSettings(db);
  return {
    defaults: {
      sessionTimeoutMinutes: String(settings.sessionTimeoutMinutes),
      maxLoginAttempts: String(settings.maxLoginAttempts),
      defaultCommission: String(settings.defaultCommission),
      loyaltyPointsPerUnit: String(settings.loyaltyPointsPerUnit),
      minQuoteAmount: centsToInput(settings.minQuoteAmountCents),
      currency: settings.currency,
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const submission = parseWithZod(await request.formData(), { schema: settingsFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  await saveSettings(db, submission.value);
  return redirectWithToast("/admin/settings", {
    type: "success",
    title: "Éxito",
    description: "Configuración guardada",
  });
}

export default function AdminSettings() {
  const { defaults } = useLoaderData<typeof loader>();
  // A new form state once saved values come back, so the fields show what is stored.
  return <SettingsForm key={JSON.stringify(defaults)} defaults={defaults} />;
}

function SettingsForm({
  defaults,
}: {
  defaults: ReturnType<typeof useLoaderData<typeof loader>>["defaults"];
}) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "settings",
    lastResult: actionData?.result,
    defaultValue: defaults,
  });
  const busy = useNavigation().state === "submitting";
  return (
    <div className="max-w-3xl">
      <h1 className="page-title">Configuración</h1>
      <p className="mt-1 text-slate-700">
        Estos valores se aplican de inmediato en toda la plataforma.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6">
        {form.errors?.length ? <FormAlert>{form.errors.join(" ")}</FormAlert> : null}
        {actionData?.result.status === "error" ? (
          <FormAlert title="No se guardó la configuración">
            Corrige los campos marcados y vuelve a intentarlo.
          </FormAlert>
        ) : null}
        <fieldset className="card grid gap-4 sm:grid-cols-2">
          <legend className="px-1 text-lg font-semibold">Seguridad</legend>
          <Field
            label="Tiempo de sesión (minutos)"
            {...getInputProps(fields.sessionTimeoutMinutes, { type: "text" })}
            inputMode="numeric"
            hint="La sesión se cierra tras este tiempo sin actividad (5 a 43200)."
            errors={fields.sessionTimeoutMinutes.errors}
          />
          <Field
            label="Máximo de intentos de inicio de sesión"
            {...getInputProps(fields.maxLoginAttempts, { type: "text" })}
            inputMode="numeric"
            hint="Tras este número de fallos, el correo queda bloqueado 15 minutos."
            errors={fields.maxLoginAttempts.errors}
          />
        </fieldset>
        <fieldset className="card grid gap-4 sm:grid-cols-2">
          <legend className="px-1 text-lg font-semibold">Negocio</legend>
          <Field
            label="Comisión por defecto (%)"
            {...getInputProps(fields.defaultCommission, { type: "text" })}
            inputMode="decimal"
            hint="Se aplica a las nuevas cotizaciones oficiales (0 a 100)."
            errors={fields.defaultCommission.errors}
          />
          <Field
            label="Puntos de lealtad por unidad de moneda"
            {...getInputProps(fields.loyaltyPointsPerUnit, { type: "text" })}
            inputMode="decimal"
            hint="Puntos que gana el comprador por cada unidad pagada."
            errors={fields.loyaltyPointsPerUnit.errors}
          />
          <Field
            label="Monto mínimo de cotización"
            {...getInputProps(fields.minQuoteAmount, { type: "text" })}
            inputMode="decimal"
            hint="Las cotizaciones por debajo de este monto se rechazan. Usa punto o coma."
            errors={fields.minQuoteAmount.errors}
          />
          <div>
            <label htmlFor={fields.currency.id} className="label">
              Moneda de la plataforma
            </label>
            <select
              {...getSelectProps(fields.currency)}
              className="input"
              aria-describedby={fields.currency.errors ? fields.currency.errorId : undefined}
            >
              {SUPPORTED_CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {CURRENCY_LABELS[c]}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.currency.errorId} errors={fields.currency.errors} />
          </div>
        </fieldset>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Guardando…" : "Guardar configuración"}
        </button>
      </Form>
    </div>
  );
}
