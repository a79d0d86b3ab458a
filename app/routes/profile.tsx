import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AppShell } from "~/components/AppShell";
import {
  ConfirmPasswordField,
  CurrentPasswordField,
  Field,
  FormErrors,
  NewPasswordField,
} from "~/components/ui/Field";
import { isRole, ROLE_LABELS } from "~/domain/roles";
import {
  newPasswordField,
  optionalText,
  phoneField,
  requiredText,
  withPasswordConfirmation,
} from "~/domain/validation";
import { changePassword, updateProfile } from "~/models/user.server";
import { requireUser } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, redirectWithToast, respond } from "~/services/respond.server";
import { readSessionId } from "~/services/session.server";
import { paths } from "~/utils/paths";
import { formatDate } from "~/utils/format";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta("Mi perfil · CotizaHub", "Tus datos de contacto y tu contraseña.");

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function profileSchema() {
  return z.object({
    first_name: requiredText("El nombre", 80),
    last_name: requiredText("El apellido", 80),
    company_name: optionalText(120),
    phone: phoneField,
  });
}

function passwordSchema() {
  return withPasswordConfirmation(
    {
      current_password: z.string({ required_error: "Ingresa tu contraseña actual." }),
      new_password: newPasswordField,
    },
    "new_password",
    "Confirma la nueva contraseña.",
  );
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user };
}

const PASSWORD_FIELDS = ["current_password", "new_password", "confirm_password"];

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  if (formData.get("intent") === "password") {
    const submission = parseWithZod(formData, { schema: passwordSchema() });
    if (submission.status !== "success")
      return invalidForm(submission, { hideFields: PASSWORD_FIELDS });
    const result = await changePassword(db, user, submission.value, await readSessionId(request));
    return respond(
      result,
      submission,
      () => ({
        to: paths.profile(),
        toast: {
          type: "success",
          title: "Contraseña actualizada",
          description: "Cerramos tu sesión en los demás dispositivos.",
        },
      }),
      { hideFields: PASSWORD_FIELDS },
    );
  }
  const submission = parseWithZod(formData, { schema: profileSchema() });
  if (submission.status !== "success") return invalidForm(submission);
  await updateProfile(db, user.id, {
    firstName: submission.value.first_name,
    lastName: submission.value.last_name,
    companyName: submission.value.company_name,
    phone: submission.value.phone,
  });
  // POST → redirect → GET: the page reloads with the saved values (SPEC §2).
  return redirectWithToast(paths.profile(), { type: "success", title: "Perfil actualizado" });
}

export default function Profile() {
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const role = isRole(user.role) ? user.role : "buyer";
  const refused = actionData?.result.initialValue?.intent;
  const profileForm = serverForm(refused === "profile" ? actionData?.result : undefined, {
    first_name: user.first_name,
    last_name: user.last_name,
    company_name: user.company_name ?? "",
    phone: user.phone ?? "",
  });
  const passwordForm = serverForm(refused === "password" ? actionData?.result : undefined);
  const busy = useNavigation().state === "submitting";
  return (
    <AppShell role={role}>
      <h1 className="page-title">Mi perfil</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="cuenta" className="card lg:col-span-1">
          <h2 id="cuenta" className="text-lg font-semibold">
            Cuenta
          </h2>
          <dl className="mt-4 space-y-3 text-sm">
            <div>
              <dt className="text-slate-600">Correo</dt>
              <dd className="break-all font-medium">{user.email}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Rol</dt>
              <dd className="font-medium">{ROLE_LABELS[role]}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Miembro desde</dt>
              <dd className="font-medium">{formatDate(user.created_at)}</dd>
            </div>
          </dl>
        </section>
        <div className="space-y-6 lg:col-span-2">
          <section aria-labelledby="datos" className="card">
            <h2 id="datos" className="text-lg font-semibold">
              Datos personales
            </h2>
            <Form noValidate method="post" className="mt-4 grid gap-4 sm:grid-cols-2">
              <input type="hidden" name="intent" value="profile" />
              <Field label="Nombre" {...profileForm.field("first_name")} type="text" required />
              <Field label="Apellido" {...profileForm.field("last_name")} type="text" required />
              <Field label="Empresa" {...profileForm.field("company_name")} type="text" />
              <Field label="Teléfono" {...profileForm.field("phone")} type="tel" />
              <div className="sm:col-span-2">
                <button type="submit" className="btn-primary" disabled={busy}>
                  Guardar cambios
                </button>
              </div>
            </Form>
          </section>
          <section aria-labelledby="seguridad" className="card">
            <h2 id="seguridad" className="text-lg font-semibold">
              Cambiar contraseña
            </h2>
            <Form noValidate method="post" className="mt-4 space-y-4">
              <input type="hidden" name="intent" value="password" />
              <FormErrors errors={passwordForm.formErrors} />
              <CurrentPasswordField
                label="Contraseña actual"
                {...passwordForm.field("current_password")}
              />
              <NewPasswordField label="Nueva contraseña" {...passwordForm.field("new_password")} />
              <ConfirmPasswordField
                label="Confirmar nueva contraseña"
                {...passwordForm.field("confirm_password")}
              />
              <button type="submit" className="btn-secondary" disabled={busy}>
                Actualizar contraseña
              </button>
            </Form>
          </section>
        </div>
      </div>
    </AppShell>
  );
}
