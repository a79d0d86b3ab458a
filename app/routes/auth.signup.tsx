import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { AuthCard, AuthErrorBoundary, AuthTabs, Honeypot } from "~/components/auth/AuthCard";
import { EmailField, Field, FormErrors, NewPasswordField, PhoneField } from "~/components/ui/Field";
import {
  emailField,
  newPasswordField,
  optionalText,
  phoneField,
  requiredText,
} from "~/domain/validation";
import { signUp } from "~/models/account.server";
import { redirectIfSignedIn } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { flashForm, invalidForm, redirectWithToast } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Crear cuenta · CotizaHub",
    "Crea tu cuenta de comprador o de socio proveedor en CotizaHub.",
  );

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
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

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

const created = () =>
  redirectWithToast(paths.signIn(), {
    type: "success",
    title: "¡Cuenta creada!",
    description: "Por favor revisa tu correo para verificar tu cuenta.",
  });

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: signUpSchema() });
  if (submission.status !== "success") return invalidForm(submission, { hideFields: ["password"] });
  const input = submission.value;
  // A bot filled the hidden field: answer as if it worked, store nothing.
  if (input.website) return created();
  const result = await signUp(db, {
    email: input.email,
    password: input.password,
    firstName: input.first_name,
    lastName: input.last_name,
    companyName: input.company_name,
    phone: input.phone,
    role: input.role,
  });
  if (result.ok) return created();
  // SPEC §4: an existing account switches to sign-in, with the e-mail already typed.
  return redirectWithToast(
    paths.signIn(),
    {
      type: "error",
      title: "La cuenta ya existe",
      description: "Ya existe una cuenta con este correo. Por favor inicia sesión",
    },
    {
      headers: {
        "Set-Cookie": await flashForm(paths.signIn(), "signin", {
          initialValue: { email: input.email },
        }),
      },
    },
  );
}

export default function SignUpPage() {
  const form = serverForm(useActionData<typeof action>()?.result);
  const busy = useNavigation().state === "submitting";
  const role = (form.field("role").defaultValue as string | undefined) ?? "buyer";
  return (
    <AuthCard title="Crear cuenta" subtitle="Regístrate como comprador o como socio proveedor.">
      <AuthTabs />
      <Form noValidate method="post" className="relative space-y-4">
        <Honeypot />
        <FormErrors title="Error al registrarse" errors={form.formErrors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Nombre"
            {...form.field("first_name")}
            type="text"
            autoComplete="given-name"
            required
          />
          <Field
            label="Apellido"
            {...form.field("last_name")}
            type="text"
            autoComplete="family-name"
            required
          />
        </div>
        <EmailField label="Correo electrónico" {...form.field("email")} />
        <NewPasswordField
          label="Contraseña"
          {...form.field("password")}
          hint="Mínimo 6 caracteres."
        />
        <Field
          label="Empresa (opcional)"
          {...form.field("company_name")}
          type="text"
          autoComplete="organization"
        />
        <PhoneField label="Teléfono (opcional)" {...form.field("phone")} />
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
          <Link to={paths.terms()} className="btn-link">
            Términos
          </Link>{" "}
          y la{" "}
          <Link to={paths.privacy()} className="btn-link">
            Política de Privacidad
          </Link>
          .
        </p>
      </Form>
    </AuthCard>
  );
}

export const ErrorBoundary = AuthErrorBoundary;
