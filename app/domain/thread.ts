import type { ForwardDraft } from "~/domain/contact-details";
import type {
  AssignmentState,
  RequestStatus,
  Role,
  ThreadKind,
  ThreadMessageKind,
} from "../../db/schema";

/**
 * Questions and answers on a request (DECISIONS §8), as pure rules: who may read and write which
 * thread, how threads are named in URLs, how authors are shown to each side, and when the next
 * e-mail digest may go.
 */

export const MESSAGE_MAX_CHARS = 5000;
/** Messages shown at once; older ones page by id ("Ver mensajes anteriores"). */
export const THREAD_WINDOW = 50;
/** At most one e-mail per thread and recipient in this time. */
export const DIGEST_INTERVAL_MS = 10 * 60_000;
/** A partner reads and writes their thread only while their assignment is in one of these. */
export const PARTNER_THREAD_STATES: readonly AssignmentState[] = ["invited", "offered", "selected"];

/** What the team is called to buyers and partners: never one operator's name. */
export const TEAM_NAME = "Equipo CotizaHub";

export interface Viewer {
  id: number;
  role: Role;
}

/** A thread as the rules see it, whether or not it has a row yet (threads start with a message). */
export interface ThreadScope {
  kind: ThreadKind;
  buyerId: number;
  /** For a partner thread: the assignment's partner and state. */
  partnerId: number | null;
  assignmentState: AssignmentState | null;
}

/** Operators see every thread; the buyer theirs; a partner their own while still in the round. */
export function maySeeThread(viewer: Viewer, scope: ThreadScope): boolean {
  if (viewer.role === "admin") return true;
  if (viewer.role === "buyer") return scope.kind === "buyer" && scope.buyerId === viewer.id;
  return (
    scope.kind === "partner" &&
    scope.partnerId === viewer.id &&
    scope.assignmentState !== null &&
    PARTNER_THREAD_STATES.includes(scope.assignmentState)
  );
}

/**
 * Why nobody may write in the thread any longer (null: they may). A cancelled request is closed;
 * a partner thread whose partner left the round (declined, withdrawn, not selected) takes no new
 * messages either, from the partner or from the operators.
 */
export function postRefusal(status: RequestStatus, scope: ThreadScope): string | null {
  if (status === "cancelled") return "La solicitud está cancelada: ya no admite mensajes.";
  if (
    scope.kind === "partner" &&
    (scope.assignmentState === null || !PARTNER_THREAD_STATES.includes(scope.assignmentState))
  ) {
    return "Este socio ya no participa en la solicitud: la conversación está cerrada.";
  }
  return null;
}

export type ThreadRef = { kind: "buyer" } | { kind: "partner"; partnerId: number };

/** The thread's name in its URL: "comprador" or "socio-<partner id>". */
export function threadKey(ref: ThreadRef): string {
  return ref.kind === "buyer" ? "comprador" : `socio-${ref.partnerId}`;
}

export function parseThreadKey(raw: string | undefined): ThreadRef | null {
  if (raw === "comprador") return { kind: "buyer" };
  const match = /^socio-([1-9][0-9]{0,15})$/.exec(raw ?? "");
  return match ? { kind: "partner", partnerId: Number(match[1]) } : null;
}

/** A message is unread for a viewer when the other side wrote it after their read marker. */
export function isUnread(
  viewer: Pick<Viewer, "role">,
  message: { id: number; authorRole: Role },
  lastReadId: number,
): boolean {
  return message.authorRole !== viewer.role && message.id > lastReadId;
}

export interface AuthorInfo {
  authorId: number | null;
  authorRole: Role;
  /** The author's name as operators see it ("Beatriz Prueba · Empresa"). */
  authorName: string;
}

/**
 * Who wrote a message, as the viewer is shown it. Buyers and partners see the team, never an
 * operator's name, and never the other side's (they cannot see the other side's threads anyway).
 */
export function authorLabel(viewer: Viewer, message: AuthorInfo): string {
  if (message.authorId === viewer.id) return "Tú";
  if (viewer.role === "admin") {
    return message.authorRole === "admin" ? `${message.authorName} (equipo)` : message.authorName;
  }
  return message.authorRole === "admin" ? TEAM_NAME : message.authorName;
}

/** A message as a thread's page shows it to one viewer (models/thread.server builds it). */
export interface MessageView {
  id: number;
  author: string;
  mine: boolean;
  fromTeam: boolean;
  authorRole: Role;
  kindLabel: string | null;
  body: string;
  createdAt: string;
  unread: boolean;
  file: { name: string; download: string; open: string } | null;
  /**
   * For operators, on a partner's message: the message with its contact details marked and the
   * copy the forward form starts from, with them hidden. Null for everyone else.
   */
  forward: ForwardDraft | null;
}

/** The line above a relayed or forwarded message, shown to every side. */
export const MESSAGE_KIND_LABELS: Record<ThreadMessageKind, string | null> = {
  message: null,
  relay: "Respuesta del equipo para todos los socios",
  forward: "Pregunta de un socio",
};

/** When the next digest to a recipient may go: now, or 10 minutes after the last one. */
export function nextDigestAt(mailedAt: string | null, now: Date = new Date()): Date {
  if (!mailedAt) return now;
  const earliest = Date.parse(mailedAt) + DIGEST_INTERVAL_MS;
  return new Date(Math.max(earliest, now.getTime()));
}

/** The first words of a message for a history line or an e-mail. */
export function excerpt(body: string, max = 140): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
