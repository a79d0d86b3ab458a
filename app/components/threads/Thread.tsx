import type { SubmissionResult } from "@conform-to/react";
import { Form, useFetcher, useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Role } from "../../../db/schema";
import { Badge } from "~/components/ui/Badge";
import { FileField, FormErrors, TextAreaField } from "~/components/ui/Field";
import { contactDetailLabel, type MessagePart } from "~/domain/contact-details";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { MESSAGE_MAX_CHARS, type MessageView } from "~/domain/thread";
import { formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";

/** A thread as the loader sends it (models/thread.server ThreadView). */
export interface ThreadData {
  key: string;
  kind: "buyer" | "partner";
  partnerId: number | null;
  title: string;
  postUrl: string;
  messages: MessageView[];
  olderThan: number | null;
  unread: number;
  closedReason: string | null;
}

type Reply = SubmissionResult<string[]> | undefined;
/** What the thread route's action answers to a form posted in place (with JavaScript). */
interface FetcherReply {
  ok?: boolean;
  result?: SubmissionResult<string[]>;
}

/** The anchor of a thread on its page. */
export const threadAnchor = (key: string) => `conversacion-${key}`;

/**
 * One conversation of a request: its messages (author, time, plain text with its line breaks; never
 * HTML) and, at its foot, a plain multipart form that works without JavaScript. With JavaScript the
 * form posts in place (a fetcher), the page keeps its scroll and the loaders bring the new message.
 * Operators also get, on each message of a buyer or partner, the forms to answer every partner at
 * once and (for a partner's question) to forward it to the buyer without the partner's name.
 */
export function Thread({
  thread,
  requestId,
  viewerRole,
  reply,
}: {
  thread: ThreadData;
  requestId: number;
  viewerRole: Role;
  /** The refused form's reply after a post without JavaScript (the thread page's action data). */
  reply?: Reply;
}) {
  const anchor = threadAnchor(thread.key);
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = thread.messages.at(-1)?.id;
  // With JavaScript the newest message is in view; without it the list reads from the top.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId]);
  const failedIntent = reply?.initialValue?.intent;
  const failedMessage = Number(reply?.initialValue?.message_id);
  return (
    <section
      id={anchor}
      aria-labelledby={`${anchor}-titulo`}
      className="card min-w-0"
      data-testid={anchor}
    >
      <h2
        id={`${anchor}-titulo`}
        className="flex flex-wrap items-center gap-2 text-lg font-semibold"
      >
        <span className="wrap-anywhere">{thread.title}</span>
        {thread.unread > 0 ? (
          <Badge tone="blue">
            {thread.unread === 1 ? "1 sin leer" : `${thread.unread} sin leer`}
          </Badge>
        ) : null}
      </h2>
      {thread.olderThan !== null ? (
        <p className="mt-2 text-sm">
          <Link
            to={paths.thread(requestId, thread.key, { before: thread.olderThan })}
            className="btn-link"
          >
            Ver mensajes anteriores
          </Link>
        </p>
      ) : null}
      {thread.messages.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">Todavía no hay mensajes.</p>
      ) : (
        <ol
          ref={listRef}
          // A scrollable region must be reachable with the keyboard (axe: scrollable-region-focusable).
          tabIndex={0}
          aria-label={`Mensajes: ${thread.title}`}
          className="mt-3 max-h-[36rem] min-w-0 space-y-3 overflow-y-auto pr-1"
        >
          {thread.messages.map((message) => (
            <li
              key={message.id}
              className={`min-w-0 rounded-lg border p-3 ${
                message.mine
                  ? "ml-4 border-brand-200 bg-brand-50"
                  : "mr-4 border-slate-200 bg-white"
              }`}
              data-testid={`mensaje-${message.id}`}
            >
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
                <span className="font-semibold text-slate-900">{message.author}</span>
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                {message.unread ? <Badge tone="blue">Nuevo</Badge> : null}
              </p>
              {message.kindLabel ? (
                <p className="mt-1 text-xs font-semibold text-brand-800">{message.kindLabel}</p>
              ) : null}
              <p className="mt-1 whitespace-pre-line wrap-anywhere text-sm [overflow-wrap:anywhere]">
                {message.forward?.hidden ? (
                  <MarkedBody parts={message.forward.parts} />
                ) : (
                  message.body
                )}
              </p>
              {message.forward?.hidden ? (
                <p className="mt-1 text-xs text-slate-700">
                  {message.forward.hidden === 1
                    ? "Resaltado: 1 dato de contacto que la copia para el comprador oculta."
                    : `Resaltados: ${message.forward.hidden} datos de contacto que la copia para el comprador oculta.`}
                </p>
              ) : null}
              {message.file ? (
                <p className="mt-2 text-sm">
                  <a href={message.file.download} className="btn-link break-all" download>
                    Adjunto: {message.file.name}
                  </a>
                </p>
              ) : null}
              {viewerRole === "admin" && !message.fromTeam ? (
                <OperatorTools
                  thread={thread}
                  message={message}
                  reply={failedMessage === message.id ? reply : undefined}
                  failedIntent={failedMessage === message.id ? failedIntent : undefined}
                />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {thread.closedReason ? (
        <p className="mt-4 rounded-md bg-slate-100 p-3 text-sm text-slate-700" role="status">
          {thread.closedReason}
        </p>
      ) : (
        <MessageForm
          thread={thread}
          viewerRole={viewerRole}
          reply={failedIntent !== "relay" && failedIntent !== "forward" ? reply : undefined}
        />
      )}
    </section>
  );
}

/** True once the page has hydrated: only then may a form ask the action for data, not a redirect. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function MessageForm({
  thread,
  viewerRole,
  reply,
}: {
  thread: ThreadData;
  viewerRole: Role;
  reply: Reply;
}) {
  const fetcher = useFetcher<FetcherReply>();
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const location = useLocation();
  const data = fetcher.state === "idle" ? fetcher.data : undefined;
  const form = serverForm(data?.result ?? reply);
  useEffect(() => {
    if (data?.ok) formRef.current?.reset();
  }, [data]);
  const busy = fetcher.state !== "idle";
  const id = (name: string) => `${threadAnchor(thread.key)}-${name}`;
  const hint =
    viewerRole === "admin"
      ? thread.kind === "buyer"
        ? "Lo lee solo el comprador, firmado como Equipo CotizaHub."
        : "Lo lee solo este socio, firmado como Equipo CotizaHub."
      : "Lo lee el equipo de CotizaHub.";
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={thread.postUrl}
      encType="multipart/form-data"
      noValidate
      className="mt-4 space-y-3 border-t border-slate-200 pt-4"
    >
      <input type="hidden" name="intent" value="post" />
      <input
        type="hidden"
        name="redirectTo"
        value={`${location.pathname}${location.search}#${threadAnchor(thread.key)}`}
      />
      {hydrated ? <input type="hidden" name="respond" value="data" /> : null}
      <FormErrors title="No se pudo enviar el mensaje" errors={form.formErrors} />
      <TextAreaField
        label="Tu mensaje"
        {...form.field("body")}
        id={id("body")}
        rows={3}
        maxLength={MESSAGE_MAX_CHARS}
        required
        hint={`${hint} Hasta ${MESSAGE_MAX_CHARS.toLocaleString("es-MX")} caracteres.`}
      />
      <FileField
        label="Adjunto (opcional)"
        {...form.field("file")}
        id={id("file")}
        rule={FILE_RULES.message}
        hint={`PDF, imagen, Word o Excel; máximo ${MAX_UPLOAD_MB} MB.`}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Enviando…" : "Enviar mensaje"}
      </button>
    </fetcher.Form>
  );
}

/** An operator's relay and forward forms for one message of a buyer or a partner. */
function OperatorTools({
  thread,
  message,
  reply,
  failedIntent,
}: {
  thread: ThreadData;
  message: MessageView;
  reply: Reply;
  failedIntent: unknown;
}) {
  return (
    <div className="mt-2 space-y-2 text-sm">
      <MessageActionForm
        intent="relay"
        postUrl={thread.postUrl}
        messageId={message.id}
        reply={failedIntent === "relay" ? reply : undefined}
        summary="Responder a todos los socios"
        errorTitle="No se pudo publicar la respuesta"
        label="Respuesta para todos los socios"
        rows={3}
        hint="Se publica como Equipo CotizaHub en la conversación de cada socio en la ronda. Es tu propio texto: no incluye el nombre, la empresa ni los datos de contacto del comprador."
        submitLabel="Publicar a los socios"
      />
      {thread.kind === "partner" ? (
        <MessageActionForm
          intent="forward"
          postUrl={thread.postUrl}
          messageId={message.id}
          reply={failedIntent === "forward" ? reply : undefined}
          summary="Reenviar al comprador"
          errorTitle="No se pudo reenviar la pregunta"
          label="Pregunta para el comprador"
          rows={4}
          hint={
            <>
              {message.forward?.hidden ? (
                <strong className="block font-semibold text-slate-900">
                  {message.forward.hidden === 1
                    ? "Se ocultó 1 dato de contacto del socio en esta copia."
                    : `Se ocultaron ${message.forward.hidden} datos de contacto del socio en esta copia.`}
                </strong>
              ) : null}{" "}
              El comprador la recibe como «Pregunta de un socio», del Equipo CotizaHub, sin el
              nombre del socio. Revisa el texto antes de enviarlo y quita cualquier otro dato que lo
              identifique.
            </>
          }
          submitLabel="Reenviar sin el nombre del socio"
          initialBody={message.forward?.copy ?? message.body}
        />
      ) : null}
    </div>
  );
}

/**
 * A partner's message as an operator reads it: the contact details the forward copy hides are
 * marked, each with its kind spelt out for screen readers (a highlight alone says nothing to them).
 */
function MarkedBody({ parts }: { parts: MessagePart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.hidden ? (
          <mark
            key={i}
            className="rounded-sm bg-amber-100 px-0.5 text-slate-900 ring-1 ring-amber-500"
          >
            <span className="sr-only">{`Dato de contacto (${contactDetailLabel(part.hidden)}): `}</span>
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/**
 * One operator action on a message (relay or forward), folded under its summary: a plain form
 * posting the intent, the message's id and the text. It opens by itself when its own post was
 * refused (`reply`), with what was typed and the errors.
 */
function MessageActionForm({
  intent,
  postUrl,
  messageId,
  reply,
  summary,
  errorTitle,
  label,
  rows,
  hint,
  submitLabel,
  initialBody,
}: {
  intent: "relay" | "forward";
  postUrl: string;
  messageId: number;
  /** The refused post of this form, if it was this one. */
  reply: Reply;
  summary: string;
  errorTitle: string;
  label: string;
  rows: number;
  hint: ReactNode;
  submitLabel: string;
  /** The text the field starts from before anything was typed. */
  initialBody?: string;
}) {
  const form = serverForm(reply);
  const body = form.field("body");
  return (
    <details open={reply !== undefined}>
      <summary className="btn-link cursor-pointer">{summary}</summary>
      <Form
        method="post"
        action={postUrl}
        encType="multipart/form-data"
        noValidate
        className="mt-2 space-y-2"
      >
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="message_id" value={messageId} />
        <FormErrors title={errorTitle} errors={form.formErrors} />
        <TextAreaField
          label={label}
          {...body}
          defaultValue={body.defaultValue ?? initialBody}
          id={`mensaje-${messageId}-${intent}`}
          rows={rows}
          maxLength={MESSAGE_MAX_CHARS}
          required
          hint={hint}
        />
        <button type="submit" className="btn-secondary">
          {submitLabel}
        </button>
      </Form>
    </details>
  );
}

/** Every conversation the viewer has on a request, as placed on the request pages. */
export function RequestThreads({
  threads,
  requestId,
  viewerRole,
}: {
  threads: ThreadData[];
  requestId: number;
  viewerRole: Role;
}) {
  if (threads.length === 0) return null;
  return (
    <div id="conversacion" className="min-w-0 space-y-6">
      {threads.map((thread) => (
        <Thread key={thread.key} thread={thread} requestId={requestId} viewerRole={viewerRole} />
      ))}
    </div>
  );
}
