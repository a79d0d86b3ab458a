import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { Honeypot } from "~/components/auth/AuthCard";
import { FormToken } from "~/components/FormToken";
import { ContactInfo } from "~/components/landing/ContactInfo";
import { EmailField, Field, FormErrors, PhoneField, TextAreaField } from "~/components/ui/Field";
import { emailField, optionalText, phoneField, requiredText } from "~/domain/validation";
import { createContactSubmission } from "~/models/contact.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import {
  formTokenOf,
  FormTokenAlreadyUsed,
  newFormToken,
  usedFormToken,
} from "~/services/form-token.server";
import { clientAddress } from "~/services/client-address.server";
import { invalidForm, redirectWithToast, refuse, type FormReply } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Contacto · CotizaHub",
    "Escríbenos: respondemos en menos de 24 horas. Horarios de atención y ventas empresariales.",
  );

const REQUIRED_FIELDS = ["name", "email", "message"] as const;

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function contactSchema() {
  return z.object({
    name: requiredText("El nombre", 120),
    email: emailField,
    phone: phoneField,
    company: optionalText(160),
    message: requiredText("El mensaje", 5000),
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  return {
    sent: new URL(request.url).searchParams.get("enviado") === "1",
    formToken: newFormToken(),
  };
}

const sentRedirect = () =>
  redirectWithToast(paths.contact({ sent: true }), {
    type: "success",
    title: "Mensaje enviado",
    description: "Gracias por contactarnos. Te responderemos pronto.",
  });

const missingRequired = (value: (name: string) => unknown) =>
  REQUIRED_FIELDS.some((name) => !String(value(name) ?? "").trim());

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  // A bot filled the hidden field: answer as if it worked, store nothing.
  const trap = formData.get("website");
  if (typeof trap === "string" && trap.trim() !== "") return sentRedirect();

  const submission = parseWithZod(formData, { schema: contactSchema() });
  if (submission.status !== "success") {
    const missing = missingRequired((name) => formData.get(name));
    return invalidForm(submission, {
      formErrors: [
        missing
          ? "Por favor completa nombre, email y mensaje."
          : "Corrige los campos marcados para enviar tu mensaje.",
      ],
    });
  }
  const formToken = formTokenOf(formData);
  // A second click (or a resend after a slow answer) is answered like the first, storing nothing.
  if (await usedFormToken(db, formToken)) return sentRedirect();
  try {
    const result = await createContactSubmission(db, submission.value, {
      formToken,
      clientAddress: clientAddress(request),
    });
    if (!result.ok) return refuse(submission, result);
  } catch (error) {
    if (error instanceof FormTokenAlreadyUsed) return sentRedirect();
    console.error("contact submission failed", error);
    return data<FormReply>(
      {
        result: submission.reply({
          formErrors: ["No se pudo enviar el mensaje. Intenta nuevamente."],
        }),
      },
      { status: 500 },
    );
  }
  return sentRedirect();
}

export default function ContactPage() {
  const { sent } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
      <div className="max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Contáctanos</h1>
        <p className="mt-3 text-slate-700">
          ¿Tienes preguntas sobre cotizaciones, pagos o cómo convertirte en socio? Escríbenos y te
          responderemos en menos de 24 horas.
        </p>
      </div>
      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="formulario-titulo" className="card lg:col-span-2">
          {sent ? <SentPanel /> : <ContactForm />}
        </section>
        <ContactInfo />
      </div>
    </div>
  );
}

function SentPanel() {
  return (
    <div className="py-6 text-center" data-testid="contact-sent">
      <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-green-50 text-green-800">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-8 w-8"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M5 13l4 4L19 7" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <h2 id="formulario-titulo" className="mt-4 text-xl font-semibold text-slate-900">
        ¡Gracias por escribirnos!
      </h2>
      <p className="mt-2 text-slate-700">
        Recibimos tu mensaje. Nuestro equipo te responderá en menos de 24 horas al correo que nos
        indicaste.
      </p>
      <Link to={paths.contact()} className="btn-primary mt-6">
        Enviar otro mensaje
      </Link>
    </div>
  );
}

function ContactForm() {
  const { formToken } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  const invalid = Object.keys(actionData?.result.error ?? {}).some((name) => name !== "");
  const noticeTitle = !invalid
    ? "Error"
    : missingRequired((name) => form.field(name).defaultValue)
      ? "Campos requeridos"
      : "Revisa el formulario";
  return (
    <>
      <h2 id="formulario-titulo" className="text-xl font-semibold text-slate-900">
        Envíanos un mensaje
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Los campos marcados con <span aria-hidden="true">*</span>
        <span className="sr-only">asterisco</span> son obligatorios.
      </p>
      <Form noValidate method="post" className="relative mt-6 grid gap-4 sm:grid-cols-2">
        <FormToken value={formToken} />
        <div className="sm:col-span-2">
          <FormErrors title={noticeTitle} errors={form.formErrors} />
        </div>
        <Honeypot />
        <Field
          label={<Required>Nombre</Required>}
          {...form.field("name")}
          type="text"
          autoComplete="name"
          required
          maxLength={120}
        />
        <EmailField
          label={<Required>Correo electrónico</Required>}
          {...form.field("email")}
          maxLength={254}
        />
        <PhoneField label="Teléfono" {...form.field("phone")} maxLength={40} />
        <Field
          label="Empresa"
          {...form.field("company")}
          type="text"
          autoComplete="organization"
          maxLength={160}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            label={<Required>Mensaje</Required>}
            {...form.field("message")}
            rows={5}
            required
            maxLength={5000}
          />
        </div>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
            {busy ? "Enviando…" : "Enviar mensaje"}
          </button>
        </div>
      </Form>
    </>
  );
}

function Required({ children }: { children: string }) {
  return (
    <>
      {children}{" "}
      <span aria-hidden="true" className="text-red-700">
        *
      </span>
    </>
  );
}
