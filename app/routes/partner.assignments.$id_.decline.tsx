import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { PartnerRequestErrorBoundary } from "~/components/partner/RequestNotFound";
import { BackLink } from "~/components/ui/BackLink";
import { FormErrors, TextAreaField } from "~/components/ui/Field";
import { Section } from "~/components/ui/Section";
import { canDecline } from "~/domain/assignment";
import { requiredText } from "~/domain/validation";
import { requirePartnerAssignment } from "~/models/partner-assignment.server";
import { declineAssignment } from "~/models/sourcing-round.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
import { formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data ? `Declinar «${data.title}» · Socio · CotizaHub` : "Solicitud no encontrada · CotizaHub",
    "Declina una solicitud de cotización e indica el motivo al equipo de CotizaHub.",
  );

const REASON_MAX = 1000;

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function declineSchema() {
  return z.object({
    reason: requiredText("El motivo", REASON_MAX).refine(
      (v) => v.length >= 3,
      "Cuéntanos en pocas palabras por qué declinas (al menos 3 caracteres).",
    ),
  });
}

/** The confirmation step before a partner declines (a page of its own, so it works without JS). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { assignment } = await requirePartnerAssignment(request, params.id);
  return {
    id: assignment.request.id,
    title: assignment.request.title,
    deadline: assignment.request.quoteDeadline,
    mayDecline: canDecline(assignment.state, assignment.request.status),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, assignment } = await requirePartnerAssignment(request, params.id);
  const submission = parseWithZod(await readForm(request), { schema: declineSchema() });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await declineAssignment(db, {
    requestId: assignment.request.id,
    partnerId: user.id,
    reason: submission.value.reason,
  });
  return respond(result, submission, () => ({
    to: paths.partner.assignment(assignment.request.id),
    toast: {
      type: "success",
      title: "Solicitud declinada",
      description: `Avisamos al equipo de CotizaHub que no cotizarás «${assignment.request.title}».`,
    },
  }));
}

export default function DeclineAssignment() {
  const { id, title, deadline, mayDecline } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result);
  const busy = useNavigation().state === "submitting";
  const detail = paths.partner.assignment(id);
  return (
    <div>
      <BackLink to={detail}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">Declinar solicitud</h1>
      <p className="mt-1 wrap-anywhere text-slate-700">«{title}»</p>
      <Section id="declinar" title="¿Por qué no vas a cotizar?" className="mt-6 max-w-2xl">
        {mayDecline ? (
          <Form method="post" className="mt-4 space-y-4">
            <FormErrors errors={form.formErrors} />
            <p className="text-sm text-slate-700">
              El plazo para cotizar vence el {formatDateTime(deadline)}. Si declinas, ya no podrás
              enviar una oferta ni ver los detalles de esta solicitud. El equipo de CotizaHub leerá
              tu motivo.
            </p>
            <TextAreaField
              label="Motivo"
              {...form.field("reason")}
              rows={4}
              maxLength={REASON_MAX}
              required
              hint="Por ejemplo: sin stock, fuera de nuestra zona de entrega, plazo insuficiente."
            />
            <div className="flex flex-wrap gap-3">
              <button type="submit" className="btn-danger" disabled={busy}>
                Declinar solicitud
              </button>
              <Link to={detail} className="btn-secondary">
                Volver
              </Link>
            </div>
          </Form>
        ) : (
          <div className="mt-4 space-y-4 text-sm text-slate-700">
            <p role="status">
              Ya no puedes declinar esta solicitud: solo se declina una invitación sin oferta en una
              solicitud abierta.
            </p>
            <Link to={detail} className="btn-secondary">
              Ver la solicitud
            </Link>
          </div>
        )}
      </Section>
    </div>
  );
}

export const ErrorBoundary = PartnerRequestErrorBoundary;
