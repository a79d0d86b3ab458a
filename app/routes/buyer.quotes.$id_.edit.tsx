import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { BuyerQuoteNotFound } from "~/components/NotFoundPanel";
import { RequestDateFields } from "~/components/quotes/RequestDateFields";
import { BackLink } from "~/components/ui/BackLink";
import { Field, FileField, FormErrors, TextAreaField } from "~/components/ui/Field";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { STATUS_LABELS } from "~/domain/quote-status";
import { latestDeadline, toDeadlineInput } from "~/domain/request-dates";
import { requestFields } from "~/domain/request-form";
import { withUpload } from "~/domain/validation";
import { requireRole } from "~/models/auth.server";
import {
  editRequest,
  getRequestChanges,
  OFFER_EXISTS_MESSAGE,
} from "~/models/request-changes.server";
import { db } from "~/services/db.server";
import { readUploadForm } from "~/services/form.server";
import { invalidForm, notFound, respond } from "~/services/respond.server";
import { discardStagedFile, storeUpload } from "~/services/storage.server";
import { idFrom } from "~/utils/ids";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data ? `Editar «${data.request.title}» · CotizaHub` : "Cotización no encontrada · CotizaHub",
    "Cambia el título, la descripción, las fechas o el archivo de tu solicitud.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  const found = id ? await getRequestChanges(db, { requestId: id, buyerId: user.id }) : undefined;
  if (!found) throw notFound();
  const { request: quote, editRefusal } = found;
  return {
    request: {
      id: quote.id,
      title: quote.title,
      fileName: quote.file_name,
      values: {
        title: quote.title,
        description: quote.description ?? "",
        quote_deadline: toDeadlineInput(quote.quote_deadline),
        needed_by: quote.needed_by ?? "",
      },
    },
    // Why the form is not offered, if it is not (the action checks again inside its transaction).
    refusal:
      editRefusal === "offers"
        ? OFFER_EXISTS_MESSAGE
        : editRefusal === "status"
          ? `Esta solicitud ya no se puede editar: está en estado «${STATUS_LABELS[quote.status]}».`
          : null,
    earliest: toDeadlineInput(new Date()),
    latest: toDeadlineInput(latestDeadline()),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  if (!id) throw notFound();
  const upload = await readUploadForm(request, "file", FILE_RULES.requirements);
  const submission = parseWithZod(upload.formData, {
    schema: withUpload(requestFields({ deadlineRequired: true }), "file", upload),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission, { unkeptFile: upload.file });
  }
  const { title, description, quote_deadline, needed_by } = submission.value;
  // A refused edit deletes the new file and keeps the old one; a saved one deletes the old file
  // only once the request no longer points to it.
  const result = await storeUpload(
    upload.file,
    (file) =>
      editRequest(db, {
        requestId: id,
        buyerId: user.id,
        title,
        description,
        quoteDeadline: quote_deadline!,
        neededBy: needed_by,
        file,
      }),
    { replaced: (saved) => saved.replacedFileKey },
  );
  return respond(
    result,
    submission,
    ({ changes, partnersTold }) => ({
      to: paths.buyer.quote(id),
      toast:
        changes.length > 0
          ? {
              type: "success",
              title: "Solicitud actualizada",
              description:
                partnersTold > 0
                  ? "Avisamos a los socios asignados de los cambios."
                  : "Los socios que asignemos verán la versión actualizada.",
            }
          : { type: "info", title: "No había cambios que guardar" },
    }),
    // A refusal did not keep the file: without JavaScript it is asked for again.
    { unkeptFile: upload.file },
  );
}

export default function EditQuoteRequest() {
  const { request, refusal, earliest, latest } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result, request.values);
  const busy = useNavigation().state === "submitting";
  const detailUrl = paths.buyer.quote(request.id);
  const extensions = FILE_RULES.requirements.extensions.map((e) => e.toUpperCase()).join(", ");
  return (
    <div className="max-w-3xl">
      <BackLink to={detailUrl}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">Editar solicitud</h1>
      <p className="mt-1 wrap-anywhere text-slate-700">«{request.title}»</p>
      {refusal ? (
        <div
          role="status"
          className="card mt-6 border-amber-300 bg-amber-50 text-sm text-amber-900"
        >
          <p>{refusal}</p>
          <Link to={detailUrl} className="btn-secondary mt-4">
            Volver a la solicitud
          </Link>
        </div>
      ) : (
        <Form
          noValidate
          method="post"
          encType="multipart/form-data"
          className="card mt-6 space-y-4"
        >
          <p className="text-sm text-slate-700">
            Puedes editarla mientras ningún socio haya enviado una oferta. Avisaremos de los cambios
            a los socios asignados.
          </p>
          <FormErrors title="No se pudo guardar" errors={form.formErrors} />
          <Field
            label="Título de la solicitud"
            {...form.field("title")}
            type="text"
            required
            maxLength={150}
          />
          <TextAreaField
            label="Descripción (opcional)"
            {...form.field("description")}
            rows={5}
            maxLength={5000}
          />
          <RequestDateFields
            deadline={form.field("quote_deadline")}
            neededBy={form.field("needed_by")}
            earliest={earliest}
            latest={latest}
            deadlineHint="Hora UTC, como todas las fechas de CotizaHub."
          />
          <FileField
            label="Nuevo archivo de requerimientos (opcional)"
            {...form.field("file")}
            rule={FILE_RULES.requirements}
            hint={`Archivo actual: ${request.fileName}. Si subes otro, lo reemplazará. ${extensions}. Máximo ${MAX_UPLOAD_MB} MB.`}
          />
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Guardando…" : "Guardar cambios"}
            </button>
            <Link to={detailUrl} className="btn-secondary">
              Volver
            </Link>
          </div>
        </Form>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <BuyerQuoteNotFound /> }} />;
}
