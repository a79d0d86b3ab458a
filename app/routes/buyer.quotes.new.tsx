import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { FormToken } from "~/components/FormToken";
import { Field, FileField, FormAlert, TextAreaField } from "~/components/ui/Field";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { RequestDateFields } from "~/components/quotes/RequestDateFields";
import { defaultDeadline, latestDeadline, toDeadlineInput } from "~/domain/request-dates";
import { requestFields } from "~/domain/request-form";
import { withUpload } from "~/domain/validation";
import { createQuoteRequest } from "~/models/quote-lifecycle.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readUploadForm } from "~/services/form.server";
import {
  formTokenOf,
  FormTokenAlreadyUsed,
  newFormToken,
  usedFormToken,
} from "~/services/form-token.server";
import { invalidForm, redirectWithToast, respond, type FormReply } from "~/services/respond.server";
import { discardStagedFile, storeUpload } from "~/services/storage.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { countOf } from "~/utils/format";
import { getSettings } from "~/services/settings.server";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Nueva cotización · CotizaHub",
    "Sube tu archivo de requerimientos y solicita cotizaciones a socios verificados.",
  );

const MISSING_FILE = "Archivo requerido: Por favor sube un archivo con tus requerimientos.";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "buyer");
  const { quoteDays } = await getSettings(db);
  return {
    formToken: newFormToken(),
    quoteDays,
    // The deadline field starts at the default a request gets when it is left empty.
    deadline: toDeadlineInput(defaultDeadline(quoteDays)),
    earliest: toDeadlineInput(new Date()),
    latest: toDeadlineInput(latestDeadline()),
  };
}

/**
 * The form was sent before (a double click, or Back and «Enviar» again, perhaps edited): nothing
 * new is stored, and the buyer is told so on the request it created instead of losing the edit
 * without a word.
 */
function alreadySent(to: string) {
  return redirectWithToast(to, {
    type: "info",
    title: "Esta solicitud ya se había enviado",
    description:
      "Este formulario ya creó la solicitud que ves; no guardamos otra. Para cambiarla usa «Editar», o crea una nueva desde «Nueva solicitud».",
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const upload = await readUploadForm(request, "file", FILE_RULES.requirements);
  // A second click on "Enviar" (or a resend after a slow answer) lands where the first one did.
  const formToken = formTokenOf(upload.formData);
  const earlier = await usedFormToken(db, formToken);
  if (earlier) {
    await discardStagedFile(upload.file);
    return alreadySent(earlier);
  }
  const submission = parseWithZod(upload.formData, {
    schema: withUpload(requestFields({ deadlineRequired: false }), "file", upload, MISSING_FILE),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission, { unkeptFile: upload.file });
  }
  const { title, description, quote_deadline, needed_by } = submission.value;
  try {
    const result = await storeUpload(upload.file, (file) =>
      createQuoteRequest(db, {
        buyerId: user.id,
        title,
        description,
        quoteDeadline: quote_deadline,
        neededBy: needed_by,
        file: file!,
        formToken,
      }),
    );
    return await respond(
      result,
      submission,
      ({ id }) => ({
        to: paths.buyer.quote(id),
        toast: {
          type: "success",
          title: "¡Cotización enviada!",
          description: "Te avisaremos cuando recibas cotizaciones de nuestros socios.",
        },
      }),
      // A refusal (a deadline already past) did not keep the file: it is asked for again.
      { unkeptFile: upload.file },
    );
  } catch (error) {
    // storeUpload removed the file: nothing half-done is left.
    if (error instanceof FormTokenAlreadyUsed)
      return alreadySent((await usedFormToken(db, formToken)) ?? paths.buyer.quotes());
    console.error(error);
    return data<FormReply>(
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
  const { formToken, quoteDays, deadline, earliest, latest } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  // Before any submission the deadline shows the default; after one, what was typed.
  const deadlineField = actionData?.result
    ? form.field("quote_deadline")
    : { ...form.field("quote_deadline"), defaultValue: deadline };
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
          <FormToken value={formToken} />
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
          />
          <TextAreaField
            label="Descripción (opcional)"
            {...form.field("description")}
            rows={5}
            maxLength={5000}
            placeholder="Cantidades, especificaciones, plazos de entrega, lugar de entrega…"
          />
          <RequestDateFields
            deadline={deadlineField}
            neededBy={form.field("needed_by")}
            earliest={earliest}
            latest={latest}
            deadlineHint={`Hora UTC, como todas las fechas de CotizaHub. Si lo dejas vacío: ${countOf(quoteDays, "día", "días")} desde ahora.`}
          />
          <FileField
            label="Archivo de requerimientos"
            {...form.field("file")}
            required
            rule={FILE_RULES.requirements}
            hint={`${extensions}. Máximo ${MAX_UPLOAD_MB} MB.`}
          />
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Enviando…" : "Enviar solicitud"}
            </button>
            <Link to={paths.buyer.quotes()} className="btn-secondary">
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
