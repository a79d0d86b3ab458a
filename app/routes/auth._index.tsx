import { readForm } from "~/services/form.server";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, Honeypot } from "~/components/auth/AuthCard";
import { Field, FormAlert } from "~/components/ui/Field";
import { homeFor } from "~/domain/roles";
import {
  emailField,
  newPasswordField,
  optionalText,
  phoneField,
  requiredText,
} from "~/domain/validation";
import { resendVerification, signUp } from "~/services/account.server";
import {
  assertSameOrigin,
  authenticateForm,
  LOCKOUT_MINUTES,
  redirectIfSignedIn,
} from "~/services/auth.server";
import { db } from "~/services/db.server";
import { startSession, toastCookie } from "~/services/session.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction = () => [{ title: "Iniciar sesión · CotizaHub" }];

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

function signUpSchema() {
  return z.object({
    first_name: requiredText("El nombre", 80),
    last_name: requiredText("El apellido", 80),
    email: emailField,
    password: newPasswordField,
    company_name: optionalText(120),
    phone: phoneField,
    role: z
      .enum(["buyer", "partner"], { message: "Elige un tipo de cuenta válido." })
      .default("buyer"),
    website: z.string().optional(),
  });
}

function resendSchema() {
  return z.object({ email: emailField });
}

type Notice = { title: string; description: string; canResend?: boolean };
type ActionData =
  | { intent: "signin"; result: SubmissionResult<string[]>; notice?: Notice; email?: string }
  | { intent: "signup"; result: SubmissionResult<string[]> }
  | { intent: "resend"; sent: true };

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  const url = new URL(request.url);
  return {
    tab: url.searchParams.get("tab") === "signup" ? ("signup" as const) : ("signin" as const),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "signup") {
    const submission = parseWithZod(formData, { schema: signUpSchema() });
    if (submission.status !== "success") {
      return data<ActionData>(
        { intent: "signup", result: submission.reply({ hideFields: ["password"] }) },
        { status: 400 },
      );
    }
    const input = submission.value;
    if (input.website) {
      // A bot filled the hidden field: answer as if it worked, store nothing.
      return redirect("/auth?tab=signin", { headers: { "Set-Cookie": await signUpToast() } });
    }
    const result = await signUp(db, {
      email: input.email,
      password: input.password,
      firstName: input.first_name,
      lastName: input.last_name,
      companyName: input.company_name,
      phone: input.phone,
      role: input.role,
    });
    if (!result.ok) {
      return data<ActionData>(
        {
          intent: "signin",
          result: { status: "error", initialValue: { email: input.email } },
          email: input.email,
          notice: {
            title: "La cuenta ya existe",
            description: "Ya existe una cuenta con este correo. Por favor inicia sesión",
          },
        },
        { status: 409 },
      );
    }
    return redirect("/auth?tab=signin", { headers: { "Set-Cookie": await signUpToast() } });
  }

  if (intent === "resend") {
    const submission = parseWithZod(formData, { schema: resendSchema() });
    if (submission.status === "success") await resendVerification(db, submission.value.email);
    return data<ActionData>({ intent: "resend", sent: true });
  }

  const submission = parseWithZod(formData, { schema: signInSchema() });
  if (submission.status !== "success") {
    return data<ActionData>(
      { intent: "signin", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  const outcome = await authenticateForm(request, formData);
  if (!outcome.ok) {
    const notice: Notice =
      outcome.reason === "locked"
        ? {
            title: "Acceso bloqueado temporalmente",
            description: `Demasiados intentos fallidos. Por seguridad, el inicio de sesión con este correo está bloqueado durante ${LOCKOUT_MINUTES} minutos.`,
          }
        : outcome.reason === "unverified"
          ? {
              title: "Correo sin verificar",
              description:
                "Debes verificar tu correo antes de iniciar sesión. Revisa tu bandeja de entrada o solicita un nuevo enlace.",
              canResend: true,
            }
          : {
              title: "Credenciales inválidas",
              description: "Por favor verifica tu correo y contraseña.",
            };
    return data<ActionData>(
      {
        intent: "signin",
        result: submission.reply({ hideFields: ["password"] }),
        notice,
        email: outcome.email,
      },
      { status: outcome.reason === "locked" ? 429 : 401 },
    );
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(db, request, outcome.user.id));
  headers.append(
    "Set-Cookie",
    await toastCookie({
      type: "success",
      title: "¡Bienvenido de vuelta!",
      description: "Has iniciado sesión exitosamente.",
    }),
  );
  return redirect(safeRedirect(submission.value.redirectTo, homeFor(outcome.user)), { headers });
}

function signUpToast() {
  return toastCookie({
    type: "success",
    title: "¡Cuenta creada!",
    description: "Por favor revisa tu correo para verificar tu cuenta.",
  });
}

export default function AuthPage() {
  const { tab: requestedTab, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // After "La cuenta ya existe" the sign-in tab opens, as SPEC §4 says.
  const tab = actionData && actionData.intent !== "resend" ? actionData.intent : requestedTab;
  return (
    <AuthCard
      title={tab === "signup" ? "Crear cuenta" : "Iniciar Sesión"}
      subtitle={
        tab === "signup"
          ? "Regístrate como comprador o como socio proveedor."
          : "Accede a tus cotizaciones, pagos y recompensas."
      }
    >
      <nav
        aria-label="Acceso"
        className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-center text-sm font-semibold"
      >
        <Link
          to={`/auth${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}
          aria-current={tab === "signin" ? "page" : undefined}
          className={`rounded-md py-2 ${tab === "signin" ? "bg-white text-brand-800 shadow" : "text-slate-700"}`}
        >
          Iniciar Sesión
        </Link>
        <Link
          to="/auth?tab=signup"
          aria-current={tab === "signup" ? "page" : undefined}
          className={`rounded-md py-2 ${tab === "signup" ? "bg-white text-brand-800 shadow" : "text-slate-700"}`}
        >
          Registrarse
        </Link>
      </nav>
      {tab === "signup" ? (
        <SignUpForm lastResult={actionData?.intent === "signup" ? actionData.result : undefined} />
      ) : (
        <SignInForm actionData={actionData} redirectTo={redirectTo} />
      )}
    </AuthCard>
  );
}

function SignInForm({
  actionData,
  redirectTo,
}: {
  actionData: ActionData | undefined;
  redirectTo: string;
}) {
  const signin = actionData?.intent === "signin" ? actionData : undefined;
  // Validation runs on submit only: without a client-side schema Conform would post each edit to
  // the action, and every sign-in post counts toward the lockout.
  const form = serverForm(signin?.result);
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-4">
      {signin?.notice ? (
        <FormAlert title={signin.notice.title}>{signin.notice.description}</FormAlert>
      ) : null}
      {actionData?.intent === "resend" ? (
        <p
          role="status"
          className="rounded-md border border-blue-300 bg-blue-50 p-3 text-sm text-blue-900"
        >
          Si la cuenta existe y aún no está verificada, te enviamos un nuevo enlace de verificación.
        </p>
      ) : null}
      <Form noValidate method="post" className="space-y-4">
        <input type="hidden" name="intent" value="signin" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label="Correo electrónico"
          {...form.field("email")}
          type="email"
          defaultValue={signin?.email ?? (form.field("email").defaultValue as string | undefined)}
          autoComplete="email"
          required
          errors={form.field("email").errors}
        />
        <Field
          label="Contraseña"
          {...form.field("password")}
          type="password"
          autoComplete="current-password"
          required
          errors={form.field("password").errors}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Iniciando sesión…" : "Iniciar Sesión"}
        </button>
      </Form>
      {signin?.notice?.canResend ? (
        <Form noValidate method="post" className="text-center">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={signin.email ?? ""} />
          <button type="submit" className="btn-link text-sm">
            Reenviar enlace de verificación
          </button>
        </Form>
      ) : null}
      <p className="text-center text-sm">
        <Link to="/auth/forgot" className="btn-link">
          ¿Olvidaste tu contraseña?
        </Link>
      </p>
    </div>
  );
}

function SignUpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const form = serverForm(lastResult);
  const busy = useNavigation().state === "submitting";
  const role = (form.field("role").defaultValue as string | undefined) ?? "buyer";
  return (
    <Form noValidate method="post" className="relative space-y-4">
      <input type="hidden" name="intent" value="signup" />
      <Honeypot />
      {form.formErrors?.length ? (
        <FormAlert title="Error al registrarse">{form.formErrors.join(" ")}</FormAlert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Nombre"
          {...form.field("first_name")}
          type="text"
          autoComplete="given-name"
          required
          errors={form.field("first_name").errors}
        />
        <Field
          label="Apellido"
          {...form.field("last_name")}
          type="text"
          autoComplete="family-name"
          required
          errors={form.field("last_name").errors}
        />
      </div>
      <Field
        label="Correo electrónico"
        {...form.field("email")}
        type="email"
        autoComplete="email"
        required
        errors={form.field("email").errors}
      />
      <Field
        label="Contraseña"
        {...form.field("password")}
        type="password"
        autoComplete="new-password"
        required
        minLength={6}
        hint="Mínimo 6 caracteres."
        errors={form.field("password").errors}
      />
      <Field
        label="Empresa (opcional)"
        {...form.field("company_name")}
        type="text"
        autoComplete="organization"
        errors={form.field("company_name").errors}
      />
      <Field
        label="Teléfono (opcional)"
        {...form.field("phone")}
        type="tel"
        autoComplete="tel"
        errors={form.field("phone").errors}
      />
      <fieldset>
        <legend className="label">Tipo de cuenta</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <label className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-300 p-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input
              type="radio"
              name="role"
              value="buyer"
              defaultChecked={role !== "partner"}
              className="mt-1"
            />
            <span>
              <span className="block font-semibold">Comprador</span>
              <span className="text-slate-700">Solicito cotizaciones</span>
            </span>
          </label>
          <label className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-300 p-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input
              type="radio"
              name="role"
              value="partner"
              defaultChecked={role === "partner"}
              className="mt-1"
            />
            <span>
              <span className="block font-semibold">Socio</span>
              <span className="text-slate-700">Soy proveedor y cotizo</span>
            </span>
          </label>
        </div>
        {form.field("role").errors ? (
          <p className="field-error">{form.field("role").errors?.join(" ")}</p>
        ) : null}
      </fieldset>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Creando cuenta…" : "Crear cuenta"}
      </button>
      <p className="text-center text-xs text-slate-700">
        Al registrarte aceptas los{" "}
        <Link to="/terms" className="btn-link">
          Términos
        </Link>{" "}
        y la{" "}
        <Link to="/privacy" className="btn-link">
          Política de Privacidad
        </Link>
        .
      </p>
    </Form>
  );
}

export function ErrorBoundary() {
  return (
    <AuthCard title="Ocurrió un error">
      <FormAlert title="Ocurrió un error">Por favor intenta de nuevo más tarde.</FormAlert>
      <Link to="/auth" className="btn-primary mt-4 w-full">
        Volver a intentar
      </Link>
    </AuthCard>
  );
}
