import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  CONTACT_LIMIT,
  CONTACT_WINDOW_MINUTES,
  createContactSubmission,
} from "~/models/contact.server";
import { db } from "~/services/db.server";

const message = (n: number) => ({
  name: "Ana Prueba",
  email: `ana${n}@cliente.test`,
  phone: null,
  company: null,
  message: `Mensaje ${n}`,
});

const stored = async (clientAddress: string) =>
  (
    await db
      .selectFrom("contact_submissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("client_address", "=", clientAddress)
      .executeTakeFirstOrThrow()
  ).n;

describe("el formulario de contacto ante una ráfaga desde una dirección", () => {
  it("guarda los primeros mensajes, rechaza los siguientes sin avisar a nadie y deja pasar a los demás", async () => {
    const flood = "203.0.113.7";
    for (let n = 0; n < CONTACT_LIMIT; n++)
      expect((await createContactSubmission(db, message(n), { clientAddress: flood })).ok).toBe(
        true,
      );
    const notices = async () =>
      (
        await db
          .selectFrom("notifications")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("related_type", "=", "contact")
          .executeTakeFirstOrThrow()
      ).n;
    const noticesBefore = await notices();
    expect(await createContactSubmission(db, message(99), { clientAddress: flood })).toEqual({
      ok: false,
      code: "locked",
      message: `Recibimos varios mensajes desde tu conexión en los últimos ${CONTACT_WINDOW_MINUTES} minutos. Espera un momento antes de enviar otro; ya tenemos los anteriores.`,
    });
    expect(await stored(flood)).toBe(CONTACT_LIMIT);
    expect(await notices()).toBe(noticesBefore);

    // Another address is not held back by this one.
    expect(
      (await createContactSubmission(db, message(100), { clientAddress: "198.51.100.2" })).ok,
    ).toBe(true);

    // Once the window has passed, the address may write again.
    const earlier = new Date(Date.now() - (CONTACT_WINDOW_MINUTES + 1) * 60_000).toISOString();
    await sql`UPDATE contact_submissions SET created_at = ${earlier}
      WHERE client_address = ${flood}`.execute(db);
    expect((await createContactSubmission(db, message(101), { clientAddress: flood })).ok).toBe(
      true,
    );
  });
});
