import type { NotificationType, RelatedType } from "../../db/schema";
import type { DB, Tx } from "./db.server";
import { absoluteUrl, deliverSoon, enqueueMail } from "./mailer.server";

type Recipients = { userIds: number[] } | { role: "admin" | "partner" | "buyer" };

interface NotifyInput {
  to: Recipients;
  type: NotificationType;
  title: string;
  message: string;
  /** Local path the notification opens, e.g. "/buyer/quotes/12". */
  link?: string;
  relatedType?: RelatedType;
  relatedId?: number;
  /** Also send the notification by e-mail (default true). */
  email?: boolean;
  /** Reply-To of that e-mail: who answering it should reach (e.g. a customer who wrote to us). */
  replyTo?: string;
}

/**
 * The single way an event reaches people: an in-app notification per recipient and, by default, an
 * e-mail through the outbox (never to a deactivated account). Call it inside the transaction that makes the change, then call
 * `flushNotifications()` once the transaction has committed.
 */
export async function notify(tx: Tx | DB, input: NotifyInput): Promise<void> {
  if ("userIds" in input.to && input.to.userIds.length === 0) return;
  const base = tx.selectFrom("users").select(["id", "email", "first_name", "deactivated_at"]);
  const recipients = await (
    "userIds" in input.to
      ? base.where("id", "in", input.to.userIds)
      : base.where("role", "=", input.to.role)
  ).execute();
  for (const recipient of recipients) {
    await tx
      .insertInto("notifications")
      .values({
        user_id: recipient.id,
        type: input.type,
        title: input.title,
        message: input.message,
        link: input.link ?? null,
        related_type: input.relatedType ?? null,
        related_id: input.relatedId ?? null,
      })
      .execute();
    // A deactivated account keeps its in-app notifications (read once it is reactivated) but is
    // sent no e-mail.
    if (input.email !== false && recipient.deactivated_at === null) {
      await enqueueMail(tx, {
        to: recipient.email,
        subject: input.title,
        replyTo: input.replyTo,
        paragraphs: [`Hola ${recipient.first_name}:`, input.message],
        action: input.link
          ? { label: "Ver en CotizaHub", url: absoluteUrl(input.link) }
          : undefined,
      });
    }
  }
}

/** Starts delivering the mail queued by `notify`; call after the transaction commits. */
export function flushNotifications(): void {
  deliverSoon();
}
