import { z } from "zod";
import { isPastDeadline } from "~/domain/assignment";
import { writeTransaction, type DB } from "~/services/db.server";
import { scheduleJob, type JobRun } from "~/services/jobs.server";
import { flushNotifications } from "~/services/notify.server";
import { formatDateTime } from "~/utils/format";
import { notifyAbout } from "./request-step.server";

/**
 * The reminder of DECISIONS §6: 24 h before a request's quote deadline, each partner still invited
 * (no offer, not declined, not withdrawn) is told once, in the app and by e-mail.
 */

export const DEADLINE_REMINDER = "deadline_reminder";
const REMIND_BEFORE_MS = 24 * 60 * 60_000;

const reminderPayload = z.object({ assignmentId: z.number().int(), deadline: z.string() });

/**
 * (Re)schedules, inside the caller's write transaction, one reminder 24 h before the request's
 * current quote_deadline for every assignment of the request that is still `invited`.
 * Called after an assignment, a deadline change (extension, buyer edit) and a reopen.
 * The job's key names the assignment and the deadline: a moved deadline gets a reminder of its own,
 * the reminder of the old deadline finds it changed and sends nothing, and calling this again for
 * the same deadline keeps the one reminder (even once it has been sent).
 */
export async function scheduleDeadlineReminders(tx: DB, requestId: number): Promise<void> {
  const request = await tx
    .selectFrom("quote_requests")
    .select("quote_deadline")
    .where("id", "=", requestId)
    .executeTakeFirst();
  if (!request) return;
  const deadline = new Date(request.quote_deadline).toISOString();
  const remindAt = Date.parse(deadline) - REMIND_BEFORE_MS;
  // Less than a day left (a late invitation, a short deadline): no reminder at all. The invitation
  // or the change the partner has just been told about names the deadline; a "reminder" of it at
  // once would only be a second notice of the same news.
  if (remindAt <= Date.now()) return;
  const invited = await tx
    .selectFrom("partner_assignments")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .where("state", "=", "invited")
    .execute();
  for (const { id } of invited) {
    await scheduleJob(tx, {
      kind: DEADLINE_REMINDER,
      key: `${DEADLINE_REMINDER}:${id}:${deadline}`,
      runAt: new Date(remindAt),
      payload: { assignmentId: id, deadline },
    });
  }
}

/**
 * The job: re-reads the assignment and its request in a write transaction and reminds the partner
 * only if they are still invited, the request still open to offers (`assigned`), and its deadline
 * the one the reminder was scheduled for and not yet passed. Anything else sends nothing.
 */
export async function sendDeadlineReminder(run: JobRun): Promise<void> {
  const { assignmentId, deadline } = reminderPayload.parse(run.payload);
  const sent = await writeTransaction(run.database, async (tx) => {
    const assignment = await tx
      .selectFrom("partner_assignments as a")
      .innerJoin("quote_requests as r", "r.id", "a.quote_request_id")
      .select(["a.partner_id", "a.state", "r.id as requestId", "r.title", "r.status"])
      .select("r.quote_deadline")
      .where("a.id", "=", assignmentId)
      .executeTakeFirst();
    if (
      !assignment ||
      assignment.state !== "invited" ||
      assignment.status !== "assigned" ||
      Date.parse(assignment.quote_deadline) !== Date.parse(deadline) ||
      isPastDeadline(deadline)
    ) {
      return false;
    }
    // Done in the same transaction as the notice: a crash after it cannot send it twice.
    if (!(await run.completeIn(tx))) return false;
    await notifyAbout(
      tx,
      assignment.requestId,
      { partner: assignment.partner_id },
      {
        type: "warning",
        title: `Recordatorio: la solicitud «${assignment.title}» vence pronto`,
        message:
          `El plazo para enviar tu oferta vence el ${formatDateTime(deadline)}. ` +
          "Envía tu oferta antes de esa hora o, si no puedes cotizar esta solicitud, declina la invitación.",
      },
    );
    return true;
  });
  if (sent) flushNotifications();
}
