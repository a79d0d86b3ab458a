import { z } from "zod";
import type { AssignmentState, RequestStatus, Role, ThreadKind } from "../../db/schema";
import { forwardDraft } from "~/domain/contact-details";
import { fail, ok, type Result } from "~/domain/result";
import {
  authorLabel,
  excerpt,
  isUnread,
  MESSAGE_KIND_LABELS,
  maySeeThread,
  type MessageView,
  nextDigestAt,
  PARTNER_THREAD_STATES,
  postRefusal,
  THREAD_WINDOW,
  threadKey,
  type ThreadRef,
  type ThreadScope,
  type Viewer,
} from "~/domain/thread";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { scheduleJob, type JobRun } from "~/services/jobs.server";
import { absoluteUrl, enqueueMail } from "~/services/mailer.server";
import { flushNotifications } from "~/services/notify.server";
import { fileLinks } from "~/services/signed-url.server";
import type { StoredFile } from "~/services/storage.server";
import { formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import {
  lifecycleStep,
  lockRequest,
  notFound,
  notifyAbout,
  recordEvent,
} from "./request-step.server";

/**
 * Questions and answers on a request (DECISIONS §8). Every read and write starts from who asks
 * (`Viewer`) and the rules of domain/thread: a thread the viewer may not see is "not found", whether
 * it exists or not. Writes run in one IMMEDIATE transaction that re-reads the request and the
 * assignment, so a partner withdrawn a moment ago cannot post. Each message tells the other side in
 * the app at once and by e-mail through a digest job (at most one e-mail per thread and recipient
 * every 10 minutes).
 */

export const THREAD_DIGEST = "thread_digest";

/** A thread resolved for a viewer: the request, the assignment (partner threads) and its row, if any. */
interface ResolvedThread {
  request: { id: number; buyerId: number; title: string; status: RequestStatus };
  kind: ThreadKind;
  assignment: { id: number; partnerId: number; state: AssignmentState } | null;
  threadId: number | null;
  scope: ThreadScope;
}

async function resolveThread(
  tx: DB,
  request: ResolvedThread["request"],
  ref: ThreadRef,
): Promise<ResolvedThread | undefined> {
  if (ref.kind === "buyer") {
    const thread = await tx
      .selectFrom("threads")
      .select("id")
      .where("quote_request_id", "=", request.id)
      .where("kind", "=", "buyer")
      .executeTakeFirst();
    return {
      request,
      kind: "buyer",
      assignment: null,
      threadId: thread?.id ?? null,
      scope: { kind: "buyer", buyerId: request.buyerId, partnerId: null, assignmentState: null },
    };
  }
  const assignment = await tx
    .selectFrom("partner_assignments as pa")
    .leftJoin("threads as t", "t.assignment_id", "pa.id")
    .select(["pa.id", "pa.partner_id", "pa.state", "t.id as threadId"])
    .where("pa.quote_request_id", "=", request.id)
    .where("pa.partner_id", "=", ref.partnerId)
    .executeTakeFirst();
  if (!assignment) return undefined;
  return {
    request,
    kind: "partner",
    assignment: { id: assignment.id, partnerId: assignment.partner_id, state: assignment.state },
    threadId: assignment.threadId,
    scope: {
      kind: "partner",
      buyerId: request.buyerId,
      partnerId: assignment.partner_id,
      assignmentState: assignment.state,
    },
  };
}

async function readRequest(tx: DB, requestId: number) {
  const row = await lockRequest(tx, requestId);
  return row
    ? { id: row.id, buyerId: row.buyer_id, title: row.title, status: row.status }
    : undefined;
}

/** The thread's row, created with its first message. */
async function ensureThread(tx: DB, thread: ResolvedThread): Promise<number> {
  if (thread.threadId !== null) return thread.threadId;
  const { id } = await tx
    .insertInto("threads")
    .values({
      quote_request_id: thread.request.id,
      kind: thread.kind,
      assignment_id: thread.assignment?.id ?? null,
      created_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

interface NewMessage {
  author: Viewer;
  body: string;
  file: StoredFile | null;
  kind?: "message" | "relay" | "forward";
  sourceId?: number | null;
}

/** A message with its author's names, as the thread view and the digest read it. */
const MESSAGE_COLUMNS = [
  "m.id",
  "m.author_id",
  "m.author_role",
  "m.kind",
  "m.body",
  "m.file_name",
  "m.file_key",
  "m.created_at",
  "u.first_name",
  "u.last_name",
  "u.company_name",
] as const;

/** Inserts a message, marks it read for its author and tells the other side (app now, mail later). */
async function insertMessage(tx: DB, thread: ResolvedThread, message: NewMessage) {
  const threadId = await ensureThread(tx, thread);
  const { id } = await tx
    .insertInto("thread_messages")
    .values({
      thread_id: threadId,
      author_id: message.author.id,
      author_role: message.author.role,
      kind: message.kind ?? "message",
      body: message.body,
      file_name: message.file?.name ?? null,
      file_type: message.file?.type ?? null,
      file_key: message.file?.key ?? null,
      file_size: message.file?.size ?? null,
      relayed_from_message_id: message.sourceId ?? null,
      created_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await markRead(tx, message.author.id, threadId, id);
  await tellOtherSide(tx, thread, threadId, id, message.author.role);
  return { threadId, messageId: id };
}

/** The users on the other side of a message: the buyer, the partner, or every active operator. */
async function recipientsOf(tx: DB, thread: ResolvedThread, authorRole: Role): Promise<number[]> {
  if (authorRole !== "admin") {
    const admins = await tx
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .where("deactivated_at", "is", null)
      .orderBy("id") // their digests are scheduled, and so sent, in this order
      .execute();
    return admins.map((a) => a.id);
  }
  return [thread.kind === "buyer" ? thread.request.buyerId : thread.assignment!.partnerId];
}

async function tellOtherSide(
  tx: DB,
  thread: ResolvedThread,
  threadId: number,
  messageId: number,
  authorRole: Role,
) {
  const title = `Nuevo mensaje sobre «${thread.request.title}»`;
  const inApp = { type: "info" as const, title, email: false };
  if (authorRole !== "admin") {
    const from = thread.kind === "buyer" ? "El comprador" : "Un socio";
    await notifyAbout(tx, thread.request.id, "admins", {
      ...inApp,
      message: `${from} escribió en la conversación de la solicitud #${thread.request.id}.`,
    });
  } else if (thread.kind === "buyer") {
    await notifyAbout(
      tx,
      thread.request.id,
      { buyer: thread.request.buyerId },
      { ...inApp, message: "El equipo de CotizaHub te escribió sobre tu solicitud." },
    );
  } else {
    await notifyAbout(
      tx,
      thread.request.id,
      { partner: thread.assignment!.partnerId },
      { ...inApp, message: "El equipo de CotizaHub te escribió sobre esta solicitud." },
    );
  }
  for (const userId of await recipientsOf(tx, thread, authorRole)) {
    await scheduleDigest(tx, threadId, userId, messageId);
  }
}

/**
 * Schedules the e-mail digest of a thread for one recipient. The job's key names the thread, the
 * recipient and how far the last digest reached: every message until the next digest runs lands on
 * the same job, and the digest, which advances that mark in its own transaction, leaves the next
 * message a new key. The job is due now, or 10 minutes after the last digest e-mail.
 */
async function scheduleDigest(tx: DB, threadId: number, userId: number, messageId: number) {
  let participant = await tx
    .selectFrom("thread_participants")
    .select(["mailed_through_message_id", "mailed_at"])
    .where("thread_id", "=", threadId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!participant) {
    // A new participant is mailed from this message on, not about the thread's whole past.
    participant = { mailed_through_message_id: messageId - 1, mailed_at: null };
    await tx
      .insertInto("thread_participants")
      .values({ thread_id: threadId, user_id: userId, mailed_through_message_id: messageId - 1 })
      .execute();
  }
  await scheduleJob(tx, {
    kind: THREAD_DIGEST,
    key: `${THREAD_DIGEST}:${threadId}:${userId}:${participant.mailed_through_message_id}`,
    runAt: nextDigestAt(participant.mailed_at),
    payload: { threadId, userId },
  });
}

/** Moves the user's read marker forward to `messageId` (never back). */
async function markRead(database: DB, userId: number, threadId: number, messageId: number) {
  await database
    .insertInto("thread_participants")
    .values({ thread_id: threadId, user_id: userId, last_read_message_id: messageId })
    .onConflict((oc) =>
      oc.columns(["thread_id", "user_id"]).doUpdateSet((eb) => ({
        last_read_message_id: eb.fn<number>("max", [
          eb.ref("thread_participants.last_read_message_id"),
          eb.ref("excluded.last_read_message_id"),
        ]),
      })),
    )
    .execute();
}

function historyNote(author: string, body: string, file: StoredFile | null) {
  return `${author}: «${excerpt(body)}»${file ? ` (adjunto: ${file.name})` : ""}`;
}

async function authorName(tx: DB, userId: number) {
  const user = await tx
    .selectFrom("users")
    .select(["first_name", "last_name", "company_name"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return user ? nameOf(user) : "Usuario";
}

function nameOf(user: {
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
}) {
  const name = `${user.first_name ?? ""} ${user.last_name ?? ""}`.trim() || "Usuario";
  return user.company_name ? `${name} · ${user.company_name}` : name;
}

/** A double submit: the thread's last message is this author's, with this text, seconds ago. */
const REPEAT_WINDOW_MS = 10_000;
async function repeatedPost(
  tx: DB,
  threadId: number | null,
  authorId: number,
  body: string,
): Promise<number | undefined> {
  if (threadId === null) return undefined;
  const last = await tx
    .selectFrom("thread_messages")
    .select(["id", "author_id", "body", "created_at"])
    .where("thread_id", "=", threadId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const repeated =
    last?.author_id === authorId &&
    last.body === body &&
    Date.now() - Date.parse(last.created_at) < REPEAT_WINDOW_MS;
  return repeated ? last.id : undefined;
}

/** Posts a message into a thread the viewer may write in. */
export function postMessage(
  database: DB,
  input: {
    viewer: Viewer;
    requestId: number;
    ref: ThreadRef;
    body: string;
    file: StoredFile | null;
  },
): Promise<Result<{ messageId: number }>> {
  return lifecycleStep(database, async (tx) => {
    const request = await readRequest(tx, input.requestId);
    const thread = request && (await resolveThread(tx, request, input.ref));
    if (!thread || !maySeeThread(input.viewer, thread.scope)) return notFound();
    const refusal = postRefusal(thread.request.status, thread.scope);
    if (refusal) return fail("conflict", refusal);
    const repeated = await repeatedPost(tx, thread.threadId, input.viewer.id, input.body);
    if (repeated !== undefined) {
      // The same text again at once is a double submit (without JavaScript nothing disables the
      // button): the first message stands. A repeated file is refused so it is not stored twice.
      return input.file
        ? fail("conflict", "Este mensaje ya se envió.")
        : ok({ messageId: repeated });
    }
    const { messageId } = await insertMessage(tx, thread, {
      author: input.viewer,
      body: input.body,
      file: input.file,
    });
    const where = thread.kind === "buyer" ? "con el comprador" : "con un socio";
    await recordEvent(
      tx,
      { id: request!.id, status: request!.status },
      input.viewer.id,
      "message",
      historyNote(
        `Mensaje de ${await authorName(tx, input.viewer.id)} (conversación ${where})`,
        input.body,
        input.file,
      ),
    );
    return ok({ messageId });
  });
}

/** The source message of a relay or forward: a message of this request not written by the team. */
async function sourceMessage(tx: DB, requestId: number, messageId: number) {
  return tx
    .selectFrom("thread_messages as m")
    .innerJoin("threads as t", "t.id", "m.thread_id")
    .select(["m.id", "m.author_role", "t.kind"])
    .where("m.id", "=", messageId)
    .where("t.quote_request_id", "=", requestId)
    .where("m.author_role", "!=", "admin")
    .executeTakeFirst();
}

/**
 * An operator's answer published to every partner still in the round (invited, offered, selected):
 * one message per partner thread. It is the operator's own text, written as the team: nothing of
 * the buyer's name, company or contact details travels with it.
 */
export function relayToPartners(
  database: DB,
  input: { adminId: number; requestId: number; body: string; sourceId: number | null },
): Promise<Result<{ partners: number }>> {
  return lifecycleStep(database, async (tx) => {
    const request = await readRequest(tx, input.requestId);
    if (!request) return notFound();
    if (input.sourceId !== null && !(await sourceMessage(tx, request.id, input.sourceId))) {
      return notFound();
    }
    const buyerScope: ThreadScope = {
      kind: "buyer",
      buyerId: request.buyerId,
      partnerId: null,
      assignmentState: null,
    };
    const refusal = postRefusal(request.status, buyerScope);
    if (refusal) return fail("conflict", refusal);
    const partners = await tx
      .selectFrom("partner_assignments")
      .select("partner_id")
      .where("quote_request_id", "=", request.id)
      .where("state", "in", PARTNER_THREAD_STATES)
      .orderBy("id")
      .execute();
    if (partners.length === 0) {
      return fail("conflict", "No hay socios en la ronda que puedan recibir la respuesta.", "body");
    }
    const author: Viewer = { id: input.adminId, role: "admin" };
    for (const { partner_id } of partners) {
      const thread = await resolveThread(tx, request, { kind: "partner", partnerId: partner_id });
      await insertMessage(tx, thread!, {
        author,
        body: input.body,
        file: null,
        kind: "relay",
        sourceId: input.sourceId,
      });
    }
    await recordEvent(
      tx,
      request,
      input.adminId,
      "relay",
      historyNote(
        `Respuesta enviada a ${partners.length === 1 ? "1 socio" : `${partners.length} socios`}`,
        input.body,
        null,
      ),
    );
    return ok({ partners: partners.length });
  });
}

/**
 * A partner's question forwarded to the buyer, as the team: the operator's copy of it (edited if it
 * named the partner), never the partner's name.
 */
export function forwardToBuyer(
  database: DB,
  input: { adminId: number; requestId: number; body: string; sourceId: number },
): Promise<Result<{ messageId: number }>> {
  return lifecycleStep(database, async (tx) => {
    const request = await readRequest(tx, input.requestId);
    if (!request) return notFound();
    const source = await sourceMessage(tx, request.id, input.sourceId);
    if (!source || source.kind !== "partner") return notFound();
    const thread = (await resolveThread(tx, request, { kind: "buyer" }))!;
    const refusal = postRefusal(request.status, thread.scope);
    if (refusal) return fail("conflict", refusal);
    const { messageId } = await insertMessage(tx, thread, {
      author: { id: input.adminId, role: "admin" },
      body: input.body,
      file: null,
      kind: "forward",
      sourceId: source.id,
    });
    await recordEvent(
      tx,
      request,
      input.adminId,
      "forward",
      historyNote("Pregunta de un socio reenviada al comprador", input.body, null),
    );
    return ok({ messageId });
  });
}

// ---- Reading

export interface ThreadView {
  key: string;
  kind: ThreadKind;
  /** For operators: the partner of a partner thread. */
  partnerId: number | null;
  title: string;
  postUrl: string;
  messages: MessageView[];
  /** The oldest message shown, when older ones exist (the "Ver mensajes anteriores" link). */
  olderThan: number | null;
  unread: number;
  closedReason: string | null;
}

interface ThreadTarget {
  ref: ThreadRef;
  title: string;
}

/** Which threads the viewer has on the request (rows or not yet), in the order the page shows them. */
async function threadsFor(
  database: DB,
  viewer: Viewer,
  request: ResolvedThread["request"],
): Promise<ThreadTarget[]> {
  if (viewer.role === "buyer") {
    return request.buyerId === viewer.id
      ? [{ ref: { kind: "buyer" }, title: "Conversación con el equipo de CotizaHub" }]
      : [];
  }
  if (viewer.role === "partner") {
    return [
      {
        ref: { kind: "partner", partnerId: viewer.id },
        title: "Conversación con el equipo de CotizaHub",
      },
    ];
  }
  const partners = await database
    .selectFrom("partner_assignments as pa")
    .innerJoin("users as u", "u.id", "pa.partner_id")
    .leftJoin("threads as t", "t.assignment_id", "pa.id")
    .select(["pa.partner_id", "u.first_name", "u.last_name", "u.company_name", "t.id as threadId"])
    .where("pa.quote_request_id", "=", request.id)
    // A partner no longer in the round keeps the thread they had, for the record.
    .where((eb) => eb.or([eb("pa.state", "in", PARTNER_THREAD_STATES), eb("t.id", "is not", null)]))
    .orderBy("pa.id")
    .execute();
  return [
    { ref: { kind: "buyer" }, title: "Conversación con el comprador" },
    ...partners.map((p) => ({
      ref: { kind: "partner" as const, partnerId: p.partner_id },
      title: `Conversación con ${nameOf(p)}`,
    })),
  ];
}

/**
 * The threads of a request the viewer may see, each with its latest messages (or, with
 * `only`/`before`, one thread's messages older than a message), and marks what is shown read.
 * Undefined when the viewer may see none (not found).
 */
export async function loadRequestThreads(
  database: DB,
  viewer: Viewer,
  requestId: number,
  { only, before }: { only?: ThreadRef; before?: number | null } = {},
): Promise<ThreadView[] | undefined> {
  const row = await database
    .selectFrom("quote_requests")
    .select(["id", "buyer_id", "title", "status"])
    .where("id", "=", requestId)
    .executeTakeFirst();
  if (!row) return undefined;
  const request = { id: row.id, buyerId: row.buyer_id, title: row.title, status: row.status };
  let targets = await threadsFor(database, viewer, request);
  if (only) targets = targets.filter((t) => threadKey(t.ref) === threadKey(only));
  const views: ThreadView[] = [];
  for (const target of targets) {
    const thread = await resolveThread(database, request, target.ref);
    if (!thread || !maySeeThread(viewer, thread.scope)) continue;
    views.push(await threadView(database, viewer, thread, target.title, before ?? null));
  }
  return views.length ? views : undefined;
}

async function threadView(
  database: DB,
  viewer: Viewer,
  thread: ResolvedThread,
  title: string,
  before: number | null,
): Promise<ThreadView> {
  const ref: ThreadRef =
    thread.kind === "buyer"
      ? { kind: "buyer" }
      : { kind: "partner", partnerId: thread.assignment!.partnerId };
  const key = threadKey(ref);
  const base: ThreadView = {
    key,
    kind: thread.kind,
    partnerId: thread.assignment?.partnerId ?? null,
    title,
    postUrl: paths.thread(thread.request.id, key),
    messages: [],
    olderThan: null,
    unread: 0,
    closedReason: postRefusal(thread.request.status, thread.scope),
  };
  if (thread.threadId === null) return base;
  const threadId = thread.threadId;
  let query = database
    .selectFrom("thread_messages as m")
    .leftJoin("users as u", "u.id", "m.author_id")
    .select(MESSAGE_COLUMNS)
    .where("m.thread_id", "=", threadId)
    .orderBy("m.id", "desc")
    .limit(THREAD_WINDOW + 1);
  if (before !== null) query = query.where("m.id", "<", before);
  const [rows, participant] = await Promise.all([
    query.execute(),
    database
      .selectFrom("thread_participants")
      .select("last_read_message_id")
      .where("thread_id", "=", threadId)
      .where("user_id", "=", viewer.id)
      .executeTakeFirst(),
  ]);
  const hasOlder = rows.length > THREAD_WINDOW;
  const shown = rows.slice(0, THREAD_WINDOW).reverse();
  const lastRead = participant?.last_read_message_id ?? 0;
  const messages = await Promise.all(
    shown.map(async (m): Promise<MessageView> => {
      const author = authorLabel(viewer, {
        authorId: m.author_id,
        authorRole: m.author_role,
        authorName: nameOf(m),
      });
      return {
        id: m.id,
        author,
        mine: m.author_id === viewer.id,
        fromTeam: m.author_role === "admin",
        authorRole: m.author_role,
        kindLabel: MESSAGE_KIND_LABELS[m.kind],
        body: m.body,
        createdAt: m.created_at,
        unread: isUnread(viewer, { id: m.id, authorRole: m.author_role }, lastRead),
        // Worked out by the server: the form is filled the same with JavaScript or without, and
        // what is hidden does not depend on code running in the operator's browser.
        forward:
          viewer.role === "admin" && thread.kind === "partner" && m.author_role === "partner"
            ? forwardDraft(m.body, {
                firstName: m.first_name,
                lastName: m.last_name,
                companyName: m.company_name,
              })
            : null,
        file:
          m.file_key && m.file_name
            ? { name: m.file_name, ...(await fileLinks(paths.files.message(m.id), viewer.id)) }
            : null,
      };
    }),
  );
  const unread = await unreadInThread(database, viewer, threadId, lastRead);
  // Shown is read: the marker moves to the newest message on the page.
  const newest = shown.at(-1);
  if (newest && newest.id > lastRead) {
    await markRead(database, viewer.id, threadId, newest.id);
    // The bell follows: the viewer's notices of new messages on this request are read too.
    await database
      .updateTable("notifications")
      .set({ read_at: now() })
      .where("user_id", "=", viewer.id)
      .where("read_at", "is", null)
      .where("related_id", "=", thread.request.id)
      .where("related_type", "in", ["quote", "assignment"])
      .where("title", "=", `Nuevo mensaje sobre «${thread.request.title}»`)
      .execute();
  }
  return {
    ...base,
    messages,
    olderThan: hasOlder ? shown[0]!.id : null,
    unread,
  };
}

async function unreadInThread(database: DB, viewer: Viewer, threadId: number, lastRead: number) {
  const row = await database
    .selectFrom("thread_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("thread_id", "=", threadId)
    .where("id", ">", lastRead)
    .where("author_role", "!=", viewer.role)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Unread messages per request for a list page: one query over the page's request ids, answered
 * from the threads and their (thread_id, id) index, whatever the number of rows. Requests with
 * nothing unread are left out.
 */
export async function unreadCountsFor(
  database: DB,
  viewer: Viewer,
  requestIds: readonly number[],
): Promise<Record<number, number>> {
  if (requestIds.length === 0) return {};
  let query = database
    .selectFrom("threads as t")
    .innerJoin("thread_messages as m", "m.thread_id", "t.id")
    .leftJoin("thread_participants as r", (join) =>
      join.onRef("r.thread_id", "=", "t.id").on("r.user_id", "=", viewer.id),
    )
    .select(["t.quote_request_id as requestId"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("t.quote_request_id", "in", [...requestIds])
    .where("m.author_role", "!=", viewer.role)
    .where((eb) => eb("m.id", ">", eb.fn.coalesce("r.last_read_message_id", eb.val(0))))
    .groupBy("t.quote_request_id");
  if (viewer.role === "buyer") {
    query = query
      .innerJoin("quote_requests as qr", "qr.id", "t.quote_request_id")
      .where("t.kind", "=", "buyer")
      .where("qr.buyer_id", "=", viewer.id);
  } else if (viewer.role === "partner") {
    query = query
      .innerJoin("partner_assignments as pa", "pa.id", "t.assignment_id")
      .where("pa.partner_id", "=", viewer.id)
      .where("pa.state", "in", PARTNER_THREAD_STATES);
  }
  const rows = await query.execute();
  return Object.fromEntries(rows.map((r) => [r.requestId, Number(r.n)]));
}

/** A message's attachment, for the thread's participants only (undefined otherwise). */
export async function messageFileFor(
  database: DB,
  viewer: Viewer,
  messageId: number,
): Promise<{ key: string; name: string; type: string } | undefined> {
  const row = await database
    .selectFrom("thread_messages as m")
    .innerJoin("threads as t", "t.id", "m.thread_id")
    .innerJoin("quote_requests as qr", "qr.id", "t.quote_request_id")
    .leftJoin("partner_assignments as pa", "pa.id", "t.assignment_id")
    .select([
      "m.file_key",
      "m.file_name",
      "m.file_type",
      "t.kind",
      "qr.buyer_id",
      "pa.partner_id",
      "pa.state",
    ])
    .where("m.id", "=", messageId)
    .where("m.file_key", "is not", null)
    .executeTakeFirst();
  if (!row?.file_key) return undefined;
  const scope: ThreadScope = {
    kind: row.kind,
    buyerId: row.buyer_id,
    partnerId: row.partner_id,
    assignmentState: row.state,
  };
  if (!maySeeThread(viewer, scope)) return undefined;
  return { key: row.file_key, name: row.file_name ?? "adjunto", type: row.file_type ?? "" };
}

// ---- The e-mail digest (a job)

const digestPayload = z.object({ threadId: z.number().int(), userId: z.number().int() });
/** Messages listed in one e-mail; the rest are counted. */
const DIGEST_LISTED = 10;

/**
 * The job: in one write transaction, re-reads the recipient, the thread and what arrived since the
 * last digest. The recipient is mailed only if they may still see the thread, their account is
 * active and something is still unread; either way the digest mark moves to the newest message, so
 * the next message schedules a new digest (10 minutes after this e-mail, if one went).
 */
export async function sendThreadDigest(run: JobRun): Promise<void> {
  const { threadId, userId } = digestPayload.parse(run.payload);
  const sent = await writeTransaction(run.database, async (tx) => {
    const participant = await tx
      .selectFrom("thread_participants as p")
      .innerJoin("users as u", "u.id", "p.user_id")
      .innerJoin("threads as t", "t.id", "p.thread_id")
      .innerJoin("quote_requests as qr", "qr.id", "t.quote_request_id")
      .leftJoin("partner_assignments as pa", "pa.id", "t.assignment_id")
      .select([
        "p.last_read_message_id",
        "p.mailed_through_message_id",
        "u.id",
        "u.role",
        "u.email",
        "u.first_name",
        "u.deactivated_at",
        "t.kind",
        "qr.id as requestId",
        "qr.buyer_id",
        "qr.title",
        "pa.partner_id",
        "pa.state",
      ])
      .where("p.thread_id", "=", threadId)
      .where("p.user_id", "=", userId)
      .executeTakeFirst();
    if (!participant) return run.completeIn(tx).then(() => false);
    const viewer: Viewer = { id: participant.id, role: participant.role };
    const arrived = await tx
      .selectFrom("thread_messages as m")
      .leftJoin("users as u", "u.id", "m.author_id")
      .select(MESSAGE_COLUMNS)
      .where("m.thread_id", "=", threadId)
      .where("m.id", ">", participant.mailed_through_message_id)
      .orderBy("m.id")
      .execute();
    if (!(await run.completeIn(tx))) return false;
    const newest = arrived.at(-1)?.id ?? participant.mailed_through_message_id;
    const unread = arrived.filter((m) =>
      isUnread(viewer, { id: m.id, authorRole: m.author_role }, participant.last_read_message_id),
    );
    const allowed =
      participant.deactivated_at === null &&
      maySeeThread(viewer, {
        kind: participant.kind,
        buyerId: participant.buyer_id,
        partnerId: participant.partner_id,
        assignmentState: participant.state,
      });
    const mail = allowed && unread.length > 0;
    await tx
      .updateTable("thread_participants")
      .set(
        mail
          ? { mailed_through_message_id: newest, mailed_at: now() }
          : { mailed_through_message_id: newest },
      )
      .where("thread_id", "=", threadId)
      .where("user_id", "=", userId)
      .execute();
    if (!mail) return false;
    const link =
      viewer.role === "admin"
        ? paths.admin.quote(participant.requestId)
        : viewer.role === "buyer"
          ? paths.buyer.quote(participant.requestId)
          : paths.partner.assignment(participant.requestId);
    const lines = unread.slice(0, DIGEST_LISTED).map((m) => {
      const author = authorLabel(viewer, {
        authorId: m.author_id,
        authorRole: m.author_role,
        authorName: nameOf(m),
      });
      const label = MESSAGE_KIND_LABELS[m.kind];
      return (
        `${author}${label ? ` (${label})` : ""}, ${formatDateTime(m.created_at)}: ` +
        `${excerpt(m.body, 500)}${m.file_name ? ` [adjunto: ${m.file_name}]` : ""}`
      );
    });
    const more = unread.length - lines.length;
    await enqueueMail(tx, {
      to: participant.email,
      subject:
        unread.length === 1
          ? `Nuevo mensaje sobre «${participant.title}»`
          : `${unread.length} mensajes nuevos sobre «${participant.title}»`,
      paragraphs: [
        `Hola ${participant.first_name}:`,
        unread.length === 1
          ? "Tienes un mensaje nuevo en la conversación de esta solicitud:"
          : `Tienes ${unread.length} mensajes nuevos en la conversación de esta solicitud:`,
        ...lines,
        ...(more > 0 ? [`Y ${more} mensaje(s) más.`] : []),
        "Responde desde CotizaHub, no a este correo.",
      ],
      action: { label: "Ver la conversación", url: absoluteUrl(link) },
    });
    return true;
  });
  if (sent) flushNotifications();
}
