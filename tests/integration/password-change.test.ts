import { describe, expect, it } from "vitest";
import { requestPasswordReset, setPasswordFromLink } from "~/models/account.server";
import { getOptionalUser } from "~/models/auth.server";
import { changePassword, setPasswordHash } from "~/models/user.server";
import { hashPassword, verifyPassword } from "~/services/crypto.server";
import { db } from "~/services/db.server";
import { readFlash, startSession } from "~/services/session.server";
import { makeUser } from "./factories";

const BASE = "http://localhost:3999";
const PASSWORD = "Clave-segura-123";
const NEW_PASSWORD = "Otra-clave-456";

async function signedIn(userId: number): Promise<string> {
  const setCookie = await startSession(db, new Request(`${BASE}/auth`), userId);
  return setCookie.split(";")[0]!;
}
const get = (path: string, cookie: string) =>
  new Request(BASE + path, { headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(BASE + path, {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  });
const args = (request: Request) => ({ request, params: {}, context: {} });

const userRow = (id: number) =>
  db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = (to: string) =>
  db
    .selectFrom("mail_outbox")
    .select(["subject", "text_body"])
    .where("to_address", "=", to)
    .orderBy("id")
    .execute();
const signedInAs = async (cookie: string) => (await getOptionalUser(get("/", cookie)))?.id;

/** A buyer who can sign in with PASSWORD. */
async function withPassword() {
  const id = await makeUser("buyer");
  await setPasswordHash(db, id, await hashPassword(PASSWORD));
  return { id, email: (await userRow(id)).email };
}

/** The /profile password form, posted as the browser does without JavaScript. */
async function postPasswordChange(cookie: string, current: string) {
  const profile = await import("~/routes/profile");
  const fields = {
    intent: "password",
    current_password: current,
    new_password: NEW_PASSWORD,
    confirm_password: NEW_PASSWORD,
  };
  try {
    return await profile.action(args(post("/profile", cookie, fields)));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("changing the password on /profile", () => {
  it("keeps this session, ends the user's other sessions and e-mails the owner", async () => {
    const buyer = await withPassword();
    const here = await signedIn(buyer.id);
    const phone = await signedIn(buyer.id);
    const laptop = await signedIn(buyer.id);
    const someoneElse = await makeUser("buyer");
    const theirs = await signedIn(someoneElse);

    const response = (await postPasswordChange(here, PASSWORD)) as Response;

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile");
    expect(await signedInAs(here)).toBe(buyer.id);
    expect(await signedInAs(phone)).toBeUndefined();
    expect(await signedInAs(laptop)).toBeUndefined();
    expect(await signedInAs(theirs)).toBe(someoneElse);
    expect(await verifyPassword(NEW_PASSWORD, (await userRow(buyer.id)).password_hash)).toBe(true);

    const profile = await import("~/routes/profile");
    expect(await profile.loader(args(get("/profile", here)))).toMatchObject({
      user: { id: buyer.id },
    });
    const refused = await profile.loader(args(get("/profile", phone))).catch((r: Response) => r);
    expect((refused as Response).headers.get("Location")).toMatch(/^\/auth\?/);

    const mails = await mailsTo(buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Tu contraseña de CotizaHub cambió");
    expect(mails[0]!.text_body).toContain("«¿Olvidaste tu contraseña?»");
    expect(mails[0]!.text_body).toContain(`${BASE}/auth/forgot`);
    expect(mails[0]!.text_body).toContain(`${BASE}/contact`);

    // The toast the next page shows, with JavaScript or without it.
    const flash = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const { value: toast } = await readFlash(get("/profile", flash), "toast");
    expect(toast).toEqual({
      type: "success",
      title: "Contraseña actualizada",
      description: "Cerramos tu sesión en los demás dispositivos.",
    });
  });

  it("with a wrong current password changes nothing, ends nothing and sends nothing", async () => {
    const buyer = await withPassword();
    const here = await signedIn(buyer.id);
    const other = await signedIn(buyer.id);
    const { password_hash } = await userRow(buyer.id);

    const reply = (await postPasswordChange(here, "No-es-la-clave-1")) as {
      data: { result: { error?: Record<string, string[]> } };
      init: { status: number };
    };

    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error?.current_password).toEqual([
      "La contraseña actual no es correcta.",
    ]);
    expect((await userRow(buyer.id)).password_hash).toBe(password_hash);
    expect(await signedInAs(here)).toBe(buyer.id);
    expect(await signedInAs(other)).toBe(buyer.id);
    expect(await mailsTo(buyer.email)).toHaveLength(0);
  });

  it("of two changes racing with the same current password, only the first one lands", async () => {
    const buyer = await withPassword();
    const change = (to: string) =>
      changePassword(db, buyer, { current_password: PASSWORD, new_password: to }, null);

    // Both check the old password before either writes; the second write finds it replaced.
    const results = await Promise.all([change("Primera-clave-1"), change("Segunda-clave-2")]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const { password_hash } = await userRow(buyer.id);
    const winner = results[0]!.ok ? "Primera-clave-1" : "Segunda-clave-2";
    expect(await verifyPassword(winner, password_hash)).toBe(true);
    expect(await mailsTo(buyer.email)).toHaveLength(1);
  });

  it("a reset from the e-mailed link still ends every session of the user", async () => {
    const buyer = await withPassword();
    const first = await signedIn(buyer.id);
    const second = await signedIn(buyer.id);
    await requestPasswordReset(db, buyer.email);
    const token = /\/auth\/reset\?token=([A-Za-z0-9_-]+)/.exec(
      (await mailsTo(buyer.email)).at(-1)!.text_body,
    )![1]!;

    expect(await setPasswordFromLink(db, token, NEW_PASSWORD)).not.toBeNull();
    expect(await signedInAs(first)).toBeUndefined();
    expect(await signedInAs(second)).toBeUndefined();
  });
});
