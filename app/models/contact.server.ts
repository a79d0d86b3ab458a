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

/** Stores a contact form message and tells every admin (in-app and by e-mail), in one transaction. */
/** Stores a contact message; with the form's one-time token a repeated submit stores nothing. */
export async function createContactSubmission(
  database: DB,
  input: ContactInput,
  formToken: string | null = null,
): Promise<number> {
  const id = await writeTransaction(database, async (tx) => {
    const { id } = await tx
      .insertInto("contact_submissions")
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        company: input.company,
        message: input.message,
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
    return id;
  });
  flushNotifications();
  return id;
}
