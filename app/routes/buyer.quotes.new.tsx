import { readUploadForm } from "~/services/form.server";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Field, FieldErrors, FormAlert, TextAreaField } from "~/components/ui/Field";
import { acceptAttribute, FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { optionalText, requiredText } from "~/domain/validation";
import { createQuoteRequest } from "~/models/quote-lifecycle.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { toastCookie } from "~/services/session.server";
import { commitStagedFile, deleteStoredFile, discardStagedFile } from "~/services/storage.server";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction = () => [{ title: "Nueva cotización · CotizaHub" }];

const MISSING_FILE = "Archivo requerido: Por favor sube un archivo con tus requerimientos.";

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return z.object({
    title: requiredText("El título", 150),
    description: optionalText(5000),
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "buyer");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const { formData, file, fileError } = await readUploadForm(
    request,
    "file",
    FILE_RULES.requirements,
  );
  const submission = parseWithZod(formData, { schema: schema() });
  const fileMessage = fileError ?? (file ? null : MISSING_FILE);
  if (submission.status !== "success" || fileMessage) {
    await discardStagedFile(file);
    const fieldErrors = submission.status === "success" ? {} : (submission.error ?? {});
    return data(
      {
        result: submission.reply({
          fieldErrors: { ...fieldErrors, ...(fileMessage ? { file: [fileMessage] } : {}) },
        }),
      },
      { status: 400 },
    );
  }
  const key = await commitStagedFile(file!);
  try {
    const { id } = await createQuoteRequest(db, {
      buyerId: user.id,
      title: submission.value.title,
      description: submission.value.description ?? null,
      file: { key, name: file!.originalName, type: file!.mime, size: file!.size },
    });
    return redirect(`/buyer/quotes/${id}`, {
      headers: {
        "Set-Cookie": await toastCookie({
          type: "success",
          title: "¡Cotización enviada!",
          description: "Te avisaremos cuando recibas cotizaciones de nuestros socios.",
        }),
      },
    });
  } catch (error) {
    // No row points to the file: remove it, so nothing half-done is left.
    await deleteStoredFile(key);
    console.error(error);
    return data(
      {
        result: submission.reply({
          formErrors: ["No se pudo enviar la solicitud. Por favor intenta de nuevo."],
        }),
      },
      { status: 500 },
    );
  }
}

export default function NewQuoteRequest() {
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  const extensions = FILE_RULES.requirements.extensions.map((e) => e.toUpperCase()).join(", ");
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <h1 className="page-title">Nueva cotización</h1>
        <p className="mt-1 text-slate-700">Cuéntanos qué necesitas y adjunta tus requerimientos.</p>
        <Form
          noValidate
          method="post"
          encType="multipart/form-data"
          className="card mt-6 space-y-4"
        >
          {form.formErrors?.length ? (
            <FormAlert title="Error">{form.formErrors.join(" ")}</FormAlert>
          ) : null}
          <Field
            label="Título de la solicitud"
            {...form.field("title")}
            type="text"
            required
            maxLength={150}
            placeholder="Ej.: 200 válvulas de compuerta de 4 pulgadas"
            errors={form.field("title").errors}
          />
          <TextAreaField
            label="Descripción (opcional)"
            {...form.field("description")}
            rows={5}
            maxLength={5000}
            placeholder="Cantidades, especificaciones, plazos de entrega, lugar de entrega…"
            errors={form.field("description").errors}
          />
          <div>
            <label htmlFor="field-file" className="label">
              Archivo de requerimientos
            </label>
            <input
              id="field-file"
              name="file"
              type="file"
              required
              accept={acceptAttribute(FILE_RULES.requirements)}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
              aria-invalid={form.field("file").errors ? true : undefined}
              aria-describedby={`field-file-hint${form.field("file").errors ? " field-file-error" : ""}`}
            />
            <p id="field-file-hint" className="mt-1 text-xs text-slate-600">
              {extensions}. Máximo {MAX_UPLOAD_MB} MB.
            </p>
            <FieldErrors id="field-file-error" errors={form.field("file").errors} />
          </div>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Enviando…" : "Enviar solicitud"}
            </button>
            <Link to="/buyer/quotes" className="btn-secondary">
              Cancelar
            </Link>
          </div>
        </Form>
      </div>
      <aside className="card h-fit" aria-labelledby="siguientes-pasos">
        <h2 id="siguientes-pasos" className="text-lg font-semibold">
          ¿Qué sigue?
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
          <li>Nuestro equipo revisa tu solicitud y la asigna a socios verificados.</li>
          <li>Los socios envían sus cotizaciones en 24-48 horas.</li>
          <li>Recibes una cotización oficial consolidada por correo y en tu tablero.</li>
        </ol>
      </aside>
    </div>
  );
}
