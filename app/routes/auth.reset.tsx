import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { AuthCard } from "~/components/auth/AuthCard";
import { ConfirmPasswordField, FormErrors, NewPasswordField } from "~/components/ui/Field";
import { homeFor } from "~/domain/roles";
import { newPasswordField, withPasswordConfirmation } from "~/domain/validation";
import { findTokenUser, issuedToken } from "~/models/auth-token.server";
import { isPasswordLink, setPasswordFromLink } from "~/models/account.server";
import { getUserById } from "~/models/user.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, redirectWithToast } from "~/services/respond.server";
import { rememberDevice, startSession } from "~/services/session.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

/**
 * Where a password is chosen from an e-mailed link: "¿Olvidaste tu contraseña?" (then sign in) or
 * an operator's invitation, «Activa tu cuenta» (then the person is signed in). The token says which.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data?.invitation
    ? pageMeta(
        "Activa tu cuenta · CotizaHub",
        "Elige tu contraseña para activar la cuenta a la que te invitaron en CotizaHub.",
      )
    : pageMeta(
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
  const purpose = (await issuedToken(db, token))?.purpose ?? null;
  const valid = isPasswordLink(purpose) && (await findTokenUser(db, token, purpose)) !== null;
  return { token: valid ? token : null, invitation: purpose === "invitation" };
}

const HIDDEN = ["password", "confirm_password"];

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission, { hideFields: HIDDEN });
  const { token, password } = submission.value;
  const done = await setPasswordFromLink(db, token, password);
  if (!done) {
    const invitation = (await issuedToken(db, token))?.purpose === "invitation";
    return invalidForm(submission, {
      formErrors: [
        invitation
          ? "El enlace de invitación ya fue usado o venció. Pide una nueva invitación."
          : "El enlace ya fue usado o venció. Solicita uno nuevo.",
      ],
      hideFields: HIDDEN,
    });
  }
  if (done.purpose === "invitation") {
    const user = await getUserById(db, done.userId);
    return redirectWithToast(
      homeFor(user),
      {
        type: "success",
        title: "¡Cuenta activada!",
        description: "Tu contraseña quedó guardada y ya iniciaste sesión.",
      },
      {
        // Accepting the invitation proved the mailbox: this browser is the account's (ADR 0018).
        headers: [
          ["Set-Cookie", await startSession(db, request, done.userId)],
          ["Set-Cookie", await rememberDevice(request, done.userId)],
        ],
      },
    );
  }
  return redirectWithToast(paths.signIn(), {
    type: "success",
    title: "Contraseña actualizada",
    description: "Ya puedes iniciar sesión con tu nueva contraseña.",
  });
}

export default function ResetPassword() {
  const { token, invitation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  if (!token) {
    return invitation ? (
      <AuthCard title="Invitación inválida o vencida">
        <p className="text-sm text-slate-700">
          El enlace de invitación ya fue usado o venció. Si ya elegiste tu contraseña, inicia
          sesión; si no, pide a un administrador de CotizaHub que te envíe una nueva invitación.
        </p>
        <Link to={paths.signIn()} className="btn-primary mt-4 w-full">
          Ir a iniciar sesión
        </Link>
      </AuthCard>
    ) : (
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
    <AuthCard
      title={invitation ? "Activa tu cuenta" : "Crea una nueva contraseña"}
      subtitle={invitation ? "Elige la contraseña con la que entrarás a CotizaHub." : undefined}
    >
      <Form noValidate method="post" className="space-y-4">
        <FormErrors errors={form.formErrors} />
        <input type="hidden" name="token" value={token} />
        <NewPasswordField
          label={invitation ? "Contraseña" : "Nueva contraseña"}
          {...form.field("password")}
          hint="Mínimo 6 caracteres."
        />
        <ConfirmPasswordField label="Confirmar contraseña" {...form.field("confirm_password")} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {invitation ? "Activar cuenta" : "Guardar contraseña"}
        </button>
      </Form>
    </AuthCard>
  );
}
