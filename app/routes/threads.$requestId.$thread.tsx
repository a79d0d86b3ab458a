import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AppShell } from "~/components/AppShell";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { Thread, threadAnchor } from "~/components/threads/Thread";
import { BackLink } from "~/components/ui/BackLink";
import { FILE_RULES } from "~/domain/files";
import { MESSAGE_MAX_CHARS, parseThreadKey, threadKey } from "~/domain/thread";
import { requiredText, withUpload } from "~/domain/validation";
import type { PublicUser } from "~/models/user.server";
import { requireUser } from "~/models/auth.server";
import {
  forwardToBuyer,
  loadRequestThreads,
  postMessage,
  relayToPartners,
} from "~/models/thread.server";
import { db } from "~/services/db.server";
import { readUploadForm } from "~/services/form.server";
import { invalidForm, notFound, redirectWithToast, refuse } from "~/services/respond.server";
import { discardStagedFile, storeUpload } from "~/services/storage.server";
import { idFrom } from "~/utils/ids";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";
import { safeRedirect } from "~/utils/safe-redirect";
import type { Toast } from "~/utils/toast";

/**
 * One conversation of a request (DECISIONS §8): `/threads/:requestId/comprador` or
 * `/threads/:requestId/socio-:partnerId`. The page shows the thread on its own, with older messages
 * (`?antes=<id>`); the request pages show the latest messages and post their forms here. Anyone who
 * may not see the thread gets the not-found page, for the page and for every form.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data ? `${data.thread.title} · CotizaHub` : "Conversación no encontrada · CotizaHub",
    "Preguntas y respuestas sobre una solicitud.",
  );

function requestPage(user: PublicUser, requestId: number) {
  return user.role === "admin"
    ? paths.admin.quote(requestId)
    : user.role === "buyer"
      ? paths.buyer.quote(requestId)
      : paths.partner.assignment(requestId);
}

function threadParams(params: LoaderFunctionArgs["params"]) {
  const requestId = idFrom(params.requestId);
  const ref = parseThreadKey(params.thread);
  if (!requestId || !ref) throw notFound();
  return { requestId, ref };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { requestId, ref } = threadParams(params);
  const before = idFrom(new URL(request.url).searchParams.get("antes"));
  const threads = await loadRequestThreads(db, user, requestId, { only: ref, before });
  if (!threads) throw notFound();
  return {
    thread: threads[0]!,
    requestId,
    role: user.role,
    back: requestPage(user, requestId),
  };
}

const body = () => requiredText("El mensaje", MESSAGE_MAX_CHARS);

// Factories, not constants, so zod stays out of the browser bundle (only the action calls them).
function operatorSchema() {
  return z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("relay"), body: body(), message_id: z.coerce.number().int() }),
      z.object({ intent: z.literal("forward"), body: body(), message_id: z.coerce.number().int() }),
    ],
    { errorMap: () => ({ message: "Acción no reconocida." }) },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { requestId, ref } = threadParams(params);
  const upload = await readUploadForm(request, "file", FILE_RULES.message);
  const form = upload.formData;
  const inPlace = form.get("respond") === "data";
  const back = safeRedirect(
    form.get("redirectTo"),
    `${requestPage(user, requestId)}#${threadAnchor(threadKey(ref))}`,
  );
  const done = (toast: Toast) =>
    inPlace ? data({ ok: true as const }) : redirectWithToast(back, toast);

  if (form.get("intent") === "relay" || form.get("intent") === "forward") {
    await discardStagedFile(upload.file);
    // Only operators relay and forward; to anyone else these forms do not exist.
    if (user.role !== "admin") throw notFound();
    const submission = parseWithZod(form, { schema: operatorSchema() });
    if (submission.status !== "success") return invalidForm(submission);
    const input = submission.value;
    if (input.intent === "relay") {
      const result = await relayToPartners(db, {
        adminId: user.id,
        requestId,
        body: input.body,
        sourceId: input.message_id,
      });
      if (!result.ok) return refuse(submission, result);
      return done({
        type: "success",
        title: "Respuesta publicada",
        description: `${result.value.partners === 1 ? "La lee 1 socio" : `La leen ${result.value.partners} socios`}, firmada como Equipo CotizaHub.`,
      });
    }
    const result = await forwardToBuyer(db, {
      adminId: user.id,
      requestId,
      body: input.body,
      sourceId: input.message_id,
    });
    if (!result.ok) return refuse(submission, result);
    return done({
      type: "success",
      title: "Pregunta reenviada",
      description: "El comprador la recibe como «Pregunta de un socio», sin su nombre.",
    });
  }

  const submission = parseWithZod(form, {
    schema: withUpload(
      z.object({ intent: z.literal("post").optional(), body: body() }),
      "file",
      upload,
    ),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission, { unkeptFile: upload.file });
  }
  const result = await storeUpload(upload.file, (file) =>
    postMessage(db, { viewer: user, requestId, ref, body: submission.value.body, file }),
  );
  if (!result.ok) return refuse(submission, result);
  return done({ type: "success", title: "Mensaje enviado" });
}

export default function ThreadPage() {
  const { thread, requestId, role, back } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const reply = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <AppShell role={role}>
      <BackLink to={back}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">Conversación</h1>
      <div className="mt-4">
        <Thread thread={thread} requestId={requestId} viewerRole={role} reply={reply} />
      </div>
    </AppShell>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
