import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard } from "~/components/auth/AuthCard";
import { ConfirmPasswordField, FormErrors, NewPasswordField } from "~/components/ui/Field";
import { newPasswordField, withPasswordConfirmation } from "~/domain/validation";
import { findTokenUser } from "~/models/auth-token.server";
import { resetPassword } from "~/models/account.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, redirectWithToast } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Nueva contraseña · CotizaHub",
    "Elige una nueva contraseña para tu cuenta de CotizaHub.",
  );

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return withPasswordConfirmation(
    { token: z.string().min(1), password: newPasswordField },
    "password",
    "Confirma la contraseña.",
  );
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = (await findTokenUser(db, token, "reset_password")) !== null;
  return { token: valid ? token : null };
}

const HIDDEN = ["password", "confirm_password"];

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission, { hideFields: HIDDEN });
  if (!(await resetPassword(db, submission.value.token, submission.value.password))) {
    return invalidForm(submission, {
      formErrors: ["El enlace ya fue usado o venció. Solicita uno nuevo."],
      hideFields: HIDDEN,
    });
  }
  return redirectWithToast(paths.signIn(), {
    type: "success",
    title: "Contraseña actualizada",
    description: "Ya puedes iniciar sesión con tu nueva contraseña.",
  });
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  if (!token) {
    return (
      <AuthCard title="Enlace inválido o vencido">
        <p className="text-sm text-slate-700">
          El enlace para restablecer la contraseña ya fue usado o venció.
        </p>
        <Link to={paths.forgotPassword()} className="btn-primary mt-4 w-full">
          Solicitar un nuevo enlace
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Crea una nueva contraseña">
      <Form noValidate method="post" className="space-y-4">
        <FormErrors errors={form.formErrors} />
        <input type="hidden" name="token" value={token} />
        <NewPasswordField
          label="Nueva contraseña"
          {...form.field("password")}
          hint="Mínimo 6 caracteres."
        />
        <ConfirmPasswordField label="Confirmar contraseña" {...form.field("confirm_password")} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Guardar contraseña
        </button>
      </Form>
    </AuthCard>
  );
}
