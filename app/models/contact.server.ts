import { fail, ok, type Result } from "~/domain/result";
import { writeTransaction, type DB } from "~/services/db.server";
import { paths } from "~/utils/paths";
import { claimFormToken } from "~/services/form-token.server";
import { flushNotifications, notify } from "~/services/notify.server";

interface ContactInput {
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  message: string;
}

const PREVIEW_LENGTH = 200;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH - 1)}…` : flat;
}

/** Messages one address may send in CONTACT_WINDOW_MINUTES: a person writes one or two; an office behind one address, a few. */
export const CONTACT_LIMIT = 10;
export const CONTACT_WINDOW_MINUTES = 10;

/**
 * Stores a contact message and tells every admin (in-app and by e-mail), in one transaction; with
 * the form's one-time token a repeated submit stores nothing. Past CONTACT_LIMIT messages from one
 * address in the window it is refused: each one e-mails every operator.
 */
export async function createContactSubmission(
  database: DB,
  input: ContactInput,
  {
    formToken = null,
    clientAddress = null,
  }: { formToken?: string | null; clientAddress?: string | null } = {},
): Promise<Result<{ id: number }>> {
  const result = await writeTransaction(database, async (tx): Promise<Result<{ id: number }>> => {
    if (clientAddress !== null) {
      const since = new Date(Date.now() - CONTACT_WINDOW_MINUTES * 60_000).toISOString();
      const recent = await tx
        .selectFrom("contact_submissions")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("client_address", "=", clientAddress)
        .where("created_at", ">", since)
        .executeTakeFirstOrThrow();
      if (Number(recent.count) >= CONTACT_LIMIT)
        return fail(
          "locked",
          `Recibimos varios mensajes desde tu conexión en los últimos ${CONTACT_WINDOW_MINUTES} minutos. Espera un momento antes de enviar otro; ya tenemos los anteriores.`,
        );
    }
    const { id } = await tx
      .insertInto("contact_submissions")
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        company: input.company,
        message: input.message,
        client_address: clientAddress,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await claimFormToken(tx, formToken, paths.contact({ sent: true }));
    const from = input.company
      ? `${input.name} (${input.company}, ${input.email})`
      : `${input.name} (${input.email})`;
    await notify(tx, {
      to: { role: "admin" },
      type: "info",
      title: "Nuevo mensaje de contacto",
      message: `${from} escribió: «${preview(input.message)}»`,
      link: paths.admin.contacts(),
      relatedType: "contact",
      relatedId: id,
      // The operator answers the customer straight from the notification e-mail.
      replyTo: input.email,
    });
    return ok({ id });
  });
  if (result.ok) flushNotifications();
  return result;
}
