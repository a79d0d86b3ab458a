import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import type { Role } from "../../db/schema";
import { AuthCard, AuthErrorBoundary, AuthTabs } from "~/components/auth/AuthCard";
import { CurrentPasswordField, EmailField, FormAlert } from "~/components/ui/Field";
import { homeFor } from "~/domain/roles";
import { emailField } from "~/domain/validation";
import { resendVerification } from "~/models/account.server";
import { authenticateForm, LOCKOUT_MINUTES, redirectIfSignedIn } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import {
  invalidForm,
  readFormFlash,
  redirectWithToast,
  type FormReply,
} from "~/services/respond.server";
import { rememberDevice, signInSession } from "~/services/session.server";
import { paths } from "~/utils/paths";
import { safeRedirect } from "~/utils/safe-redirect";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Iniciar sesión · CotizaHub",
    "Inicia sesión en CotizaHub para solicitar, comparar y pagar cotizaciones B2B.",
  );

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function signInSchema() {
  return z.object({
    email: z
      .string({ required_error: "El correo es obligatorio." })
      .trim()
      .email("Ingresa un correo válido."),
    password: z.string({ required_error: "La contraseña es obligatoria." }),
    redirectTo: z.string().optional(),
  });
}

function resendSchema() {
  return z.object({ email: emailField });
}

type Notice = { title: string; canResend?: boolean };
type ActionData = FormReply & { notice?: Notice; resent?: true };

/** Sign-up had `/auth?tab=signup` (still linked from old pages and e-mails). */
export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  const url = new URL(request.url);
  if (url.searchParams.get("tab") === "signup") throw redirect(paths.signUp());
  // After "La cuenta ya existe" the sign-up flashes the e-mail it was given to this form.
  const { flashed, setCookie } = await readFormFlash(request);
  return data(
    {
      redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""),
      sessionExpired: url.searchParams.get("sesion") === "expirada",
      flashed: flashed?.form === "signin" ? flashed.result : null,
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

const PASSWORD = ["password"];

/**
 * A deactivated account is named only to whoever typed its right password (as an unverified one
 * is): any other attempt gets "Credenciales inválidas", so the answer reveals nothing more.
 */
const SIGN_IN_REFUSED = { locked: 429, deactivated: 403, unverified: 401, invalid: 401 } as const;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  // Sign-up moved to its own route; 307 keeps the method and the body for old forms and clients.
  if (intent === "signup") return redirect(paths.signUp(), 307);

  if (intent === "resend") {
    const submission = parseWithZod(formData, { schema: resendSchema() });
    if (submission.status === "success") await resendVerification(db, submission.value.email);
    return data<ActionData>({ result: submission.reply(), resent: true });
  }

  const submission = parseWithZod(formData, { schema: signInSchema() });
  if (submission.status !== "success") return invalidForm(submission, { hideFields: PASSWORD });
  const outcome = await authenticateForm(request, formData);
  if (!outcome.ok) {
    const [title, description, canResend] =
      outcome.reason === "locked"
        ? [
            "Acceso bloqueado temporalmente",
            `Demasiados intentos fallidos. Por seguridad, el inicio de sesión con este correo está bloqueado durante ${LOCKOUT_MINUTES} minutos desde este navegador. Si ya entraste antes desde otro navegador, puedes seguir entrando desde él.`,
          ]
        : outcome.reason === "deactivated"
          ? [
              "Cuenta desactivada",
              "Tu cuenta está desactivada. Si crees que es un error, contacta con el administrador de CotizaHub.",
            ]
          : outcome.reason === "unverified"
            ? [
                "Correo sin verificar",
                "Debes verificar tu correo antes de iniciar sesión. Revisa tu bandeja de entrada o solicita un nuevo enlace.",
                true,
              ]
            : ["Credenciales inválidas", "Por favor verifica tu correo y contraseña."];
    return data<ActionData>(
      {
        result: submission.reply({ formErrors: [description], hideFields: PASSWORD }),
        notice: { title, canResend: Boolean(canResend) },
      },
      { status: SIGN_IN_REFUSED[outcome.reason] },
    );
  }
  const session = await signInSession(db, request, outcome.user.id);
  return redirectWithToast(
    safeRedirect(submission.value.redirectTo, homeFor(outcome.user)),
    session.firstSignIn
      ? {
          type: "success",
          title: "¡Bienvenido a CotizaHub!",
          description: FIRST_SIGN_IN[outcome.user.role],
        }
      : {
          type: "success",
          title: "¡Bienvenido de vuelta!",
          description: "Has iniciado sesión exitosamente.",
        },
    {
      headers: [
        ["Set-Cookie", session.setCookie],
        ["Set-Cookie", await rememberDevice(request, outcome.user.id)],
      ],
    },
  );
}

/** What a new account does first, told once at its first sign-in (later ones greet a return). */
const FIRST_SIGN_IN: Record<Role, string> = {
  buyer:
    "Tu cuenta está lista. Crea tu primera solicitud de cotización y recibe ofertas de nuestros socios.",
  partner:
    "Tu cuenta de socio está lista. Te avisaremos cuando te asignemos solicitudes para cotizar.",
  admin:
    "Tu cuenta de administrador está lista. Desde el panel gestionas solicitudes, socios y pagos.",
};

export default function SignInPage() {
  const { redirectTo, sessionExpired, flashed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result ?? flashed);
  const notice = actionData && "notice" in actionData ? actionData.notice : undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard title="Iniciar Sesión" subtitle="Accede a tus cotizaciones, pagos y recompensas.">
      <AuthTabs redirectTo={redirectTo} />
      <div className="space-y-4">
        {notice ? <FormAlert title={notice.title}>{form.formErrors?.join(" ")}</FormAlert> : null}
        {sessionExpired && !actionData ? (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          >
            Tu sesión expiró por inactividad. Inicia sesión de nuevo para continuar.
          </p>
        ) : null}
        {actionData && "resent" in actionData ? (
          <p
            role="status"
            className="rounded-md border border-blue-300 bg-blue-50 p-3 text-sm text-blue-900"
          >
            Si la cuenta existe y aún no está verificada, te enviamos un nuevo enlace de
            verificación.
          </p>
        ) : null}
        {/* Validation runs on submit only: every sign-in post counts toward the lockout. */}
        <Form noValidate method="post" className="space-y-4">
          <input type="hidden" name="intent" value="signin" />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <EmailField label="Correo electrónico" {...form.field("email")} />
          <CurrentPasswordField label="Contraseña" {...form.field("password")} />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Iniciando sesión…" : "Iniciar Sesión"}
          </button>
        </Form>
        {notice?.canResend ? (
          <Form noValidate method="post" className="text-center">
            <input type="hidden" name="intent" value="resend" />
            <input type="hidden" name="email" value={form.field("email").defaultValue ?? ""} />
            <button type="submit" className="btn-link text-sm">
              Reenviar enlace de verificación
            </button>
          </Form>
        ) : null}
        <p className="text-center text-sm">
          <Link to={paths.forgotPassword()} className="btn-link">
            ¿Olvidaste tu contraseña?
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}

export const ErrorBoundary = AuthErrorBoundary;
