import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { AuthCard } from "~/components/auth/AuthCard";
import { EmailField } from "~/components/ui/Field";
import { emailField } from "~/domain/validation";
import { requestPasswordReset } from "~/models/account.server";
import { redirectIfSignedIn } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Recuperar contraseña · CotizaHub",
    "Recibe por correo un enlace para restablecer tu contraseña.",
  );

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return z.object({ email: emailField });
}

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  await requestPasswordReset(db, submission.value.email);
  // The same answer whether or not the account exists.
  return { result: submission.reply(), sent: true as const };
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard
      title="¿Olvidaste tu contraseña?"
      subtitle="Te enviaremos un enlace para crear una nueva."
    >
      {actionData && "sent" in actionData ? (
        <div role="status" className="space-y-4">
          <p className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
            Si existe una cuenta con ese correo, te enviamos un enlace para restablecer tu
            contraseña. Revisa tu bandeja de entrada; el enlace vence en 1 hora.
          </p>
          <Link to={paths.signIn()} className="btn-secondary w-full">
            Volver a iniciar sesión
          </Link>
        </div>
      ) : (
        <Form noValidate method="post" className="space-y-4">
          <EmailField label="Correo electrónico" {...form.field("email")} />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            Enviar enlace
          </button>
          <p className="text-center text-sm">
            <Link to={paths.signIn()} className="btn-link">
              Volver a iniciar sesión
            </Link>
          </p>
        </Form>
      )}
    </AuthCard>
  );
}
