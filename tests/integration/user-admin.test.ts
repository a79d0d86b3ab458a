import { describe, expect, it } from "vitest";
import {
  ALREADY_ACTIVATED_MESSAGE,
  changeUserRole,
  deactivateUser,
  EMAIL_TAKEN_MESSAGE,
  inviteUser,
  LAST_ACTIVE_ADMIN_MESSAGE,
  LAST_ADMIN_MESSAGE,
  NO_LONGER_ADMIN_MESSAGE,
  reactivateUser,
  REACTIVATE_FIRST_MESSAGE,
  resendInvitation,
  SELF_DEACTIVATION_MESSAGE,
} from "~/models/admin-user.server";
import { requestPasswordReset, setPasswordFromLink } from "~/models/account.server";
import { findTokenUser, REQUESTED_LINKS_PER_HOUR } from "~/models/auth-token.server";
import { getOptionalUser, verifySignIn } from "~/models/auth.server";
import { assignPartner } from "~/models/quote-lifecycle.server";
import { listAssignablePartners } from "~/models/quote-request.server";
import { listLandingPartners } from "~/models/catalogue.server";
import { FEATURE_PENDING_MESSAGE, setPartnerFeatured } from "~/models/partner-admin.server";
import { NO_PASSWORD_HASH, setPasswordHash } from "~/models/user.server";
import { hashPassword, verifyPassword } from "~/services/crypto.server";
import { db } from "~/services/db.server";
import { notify } from "~/services/notify.server";
import { startSession } from "~/services/session.server";
import { makeRequest, makeUser } from "./factories";

const BASE = "http://localhost:3999";
const PASSWORD = "Clave-segura-123";
const ADDRESS = "203.0.113.7";

// ---- Requests as the browser sends them.

async function signedIn(userId: number): Promise<string> {
  const setCookie = await startSession(db, new Request(`${BASE}/auth`), userId);
  return setCookie.split(";")[0]!;
}
const get = (path: string, cookie = "") =>
  new Request(BASE + path, { headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(BASE + path, {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  });
const args = (request: Request) => ({ request, params: {}, context: {} });

/** What a loader or an action answered: a Response (redirect, 404) or its data and status. */
async function answer(run: () => Promise<unknown>): Promise<Response | Answered> {
  try {
    const value = await run();
    if (value instanceof Response) return value;
    const wrapped = value as { data?: unknown; init?: { status?: number } };
    if (wrapped && typeof wrapped === "object" && "init" in wrapped)
      return { status: wrapped.init?.status ?? 200, data: wrapped.data };
    return { status: 200, data: value };
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
interface Answered {
  status: number;
  data: unknown;
}
type Reply = {
  status: number;
  data: { result: { error?: Record<string, string[]> }; notice?: { title: string } };
};

// ---- What is stored.

const userRow = (id: number) =>
  db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const userByEmail = (email: string) =>
  db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
const sessionsOf = async (userId: number) =>
  Number(
    (
      await db
        .selectFrom("sessions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const mailsTo = (to: string) =>
  db
    .selectFrom("mail_outbox")
    .select(["subject", "text_body"])
    .where("to_address", "=", to)
    .orderBy("id")
    .execute();
const count = async (table: "users" | "auth_tokens" | "mail_outbox") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The token of the set-password link in the last e-mail to `to`. */
async function linkTokenIn(to: string): Promise<string> {
  const mails = await mailsTo(to);
  const match = /\/auth\/reset\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? "");
  if (!match) throw new Error(`No hay enlace en el último correo a ${to}`);
  return match[1]!;
}

/** A user who can sign in with PASSWORD. */
async function withPassword(role: "buyer" | "partner" | "admin") {
  const id = await makeUser(role);
  await setPasswordHash(db, id, await hashPassword(PASSWORD));
  return { id, email: (await userRow(id)).email };
}

async function onlyAdmins(count: number): Promise<number[]> {
  // The file's database keeps the admins of earlier tests: the last-admin rule is about these.
  await db.updateTable("users").set({ role: "buyer" }).where("role", "=", "admin").execute();
  return Promise.all(Array.from({ length: count }, () => makeUser("admin")));
}

describe("deactivating a user", () => {
  it("refuses their open session at once: the next request is sent to sign in", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const cookie = await signedIn(buyer);
    const second = await signedIn(buyer);
    expect((await getOptionalUser(get("/buyer", cookie)))?.id).toBe(buyer);

    const result = await deactivateUser(db, { userId: buyer, adminId: admin });
    expect(result.ok).toBe(true);

    expect(await getOptionalUser(get("/buyer", cookie))).toBeNull();
    expect(await getOptionalUser(get("/buyer", second))).toBeNull();
    expect(await sessionsOf(buyer)).toBe(0);
    const home = await import("~/routes/buyer._index");
    const refused = (await answer(() => home.loader(args(get("/buyer", cookie))))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toMatch(/^\/auth\?redirectTo=%2Fbuyer/);
    const stored = await userRow(buyer);
    expect(stored.deactivated_at).not.toBeNull();
    expect(stored.deactivated_by).toBe(admin);
  });

  it("refuses a session started in a race with it (a sign-in checked just before)", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    await deactivateUser(db, { userId: buyer, adminId: admin });
    const cookie = await signedIn(buyer);
    expect(await getOptionalUser(get("/buyer", cookie))).toBeNull();
    expect(await sessionsOf(buyer)).toBe(0);
  });

  it("refuses sign-in with the right password, and answers a wrong one as for anybody", async () => {
    const admin = await makeUser("admin");
    const buyer = await withPassword("buyer");
    await deactivateUser(db, { userId: buyer.id, adminId: admin });

    expect(await verifySignIn(db, buyer.email, PASSWORD, ADDRESS)).toMatchObject({
      ok: false,
      reason: "deactivated",
    });
    expect(await verifySignIn(db, buyer.email, "otra-clave", ADDRESS)).toMatchObject({
      ok: false,
      reason: "invalid",
    });

    const signIn = await import("~/routes/auth._index");
    const attempt = async (email: string, password: string) =>
      (await answer(() =>
        signIn.action(args(post("/auth", "", { intent: "signin", email, password }))),
      )) as Reply;
    const refused = await attempt(buyer.email, PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.data.notice?.title).toBe("Cuenta desactivada");
    expect(refused.data.result.error?.[""]).toEqual([
      "Tu cuenta está desactivada. Si crees que es un error, contacta con el administrador de CotizaHub.",
    ]);
    expect(await sessionsOf(buyer.id)).toBe(0);

    const wrong = await attempt(buyer.email, "otra-clave");
    const unknown = await attempt("nadie.registrado@ejemplo.test", "otra-clave");
    // The same answer as for an e-mail nobody registered (only the typed e-mail differs).
    const seen = (reply: Reply) => [reply.status, reply.data.notice, reply.data.result.error];
    expect(seen(wrong)).toEqual(seen(unknown));
    expect(wrong.status).toBe(401);
    expect(wrong.data.notice?.title).toBe("Credenciales inválidas");
  });

  it("asking again and again for a reset link sends a few, then nothing (the answer is the same)", async () => {
    const buyer = await withPassword("buyer");
    for (let i = 0; i < REQUESTED_LINKS_PER_HOUR + 3; i++)
      await requestPasswordReset(db, buyer.email);
    expect(await mailsTo(buyer.email)).toHaveLength(REQUESTED_LINKS_PER_HOUR);
    // The last link sent is the one that works.
    const token = await linkTokenIn(buyer.email);
    expect(await setPasswordFromLink(db, token, "Nueva-clave-789")).not.toBeNull();
  });

  it("a password reset does not reactivate: old links stop working and no new one is sent", async () => {
    const admin = await makeUser("admin");
    const buyer = await withPassword("buyer");
    await requestPasswordReset(db, buyer.email);
    const token = await linkTokenIn(buyer.email);
    const { password_hash } = await userRow(buyer.id);
    await deactivateUser(db, { userId: buyer.id, adminId: admin });

    const reset = await import("~/routes/auth.reset");
    const page = (await answer(() =>
      reset.loader(args(get(`/auth/reset?token=${token}`))),
    )) as Answered;
    expect(page.data).toEqual({ token: null, invitation: false });
    expect(await setPasswordFromLink(db, token, "Nueva-clave-456")).toBeNull();

    const mails = (await mailsTo(buyer.email)).length;
    await requestPasswordReset(db, buyer.email);
    expect(await mailsTo(buyer.email)).toHaveLength(mails);
    const stored = await userRow(buyer.id);
    expect(stored.password_hash).toBe(password_hash);
    expect(stored.deactivated_at).not.toBeNull();
  });

  it("sends them no e-mail from notifications (the in-app one is kept for their return)", async () => {
    const admin = await makeUser("admin");
    const buyer = await withPassword("buyer");
    const tell = () =>
      notify(db, { to: { userIds: [buyer.id] }, type: "info", title: "Aviso", message: "Hola" });
    const inApp = () =>
      db.selectFrom("notifications").select("id").where("user_id", "=", buyer.id).execute();

    await deactivateUser(db, { userId: buyer.id, adminId: admin });
    await tell();
    expect(await inApp()).toHaveLength(1);
    expect(await mailsTo(buyer.email)).toHaveLength(0);

    await reactivateUser(db, { userId: buyer.id, adminId: admin });
    await tell();
    expect(await inApp()).toHaveLength(2);
    expect(await mailsTo(buyer.email)).toHaveLength(1);
  });

  it("a deactivated partner is not featured nor offered for assignment, and assigning them is refused", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const active = await makeUser("partner");
    const gone = await makeUser("partner");
    const requestId = await makeRequest(buyer);
    await deactivateUser(db, { userId: gone, adminId: admin });

    await db
      .updateTable("users")
      .set({ is_featured_partner: 1 })
      .where("id", "in", [active, gone])
      .execute();
    const featured = (await listLandingPartners(db, 1000)).map((p) => p.id);
    expect(featured).toContain(active);
    expect(featured).not.toContain(gone);
    const offered = (await listAssignablePartners(db, requestId)).map((p) => p.id);
    expect(offered).toContain(active);
    expect(offered).not.toContain(gone);
    expect(await assignPartner(db, { requestId, partnerId: gone, adminId: admin })).toMatchObject({
      ok: false,
      fieldErrors: { partner_id: ["El usuario seleccionado no es un socio activo."] },
    });
    const assignments = await db
      .selectFrom("partner_assignments")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .execute();
    expect(assignments).toHaveLength(0);
  });

  it("reactivation lets them sign in again with their password", async () => {
    const admin = await makeUser("admin");
    const partner = await withPassword("partner");
    await deactivateUser(db, { userId: partner.id, adminId: admin });
    expect(await reactivateUser(db, { userId: partner.id, adminId: admin })).toMatchObject({
      ok: true,
    });
    const stored = await userRow(partner.id);
    expect([stored.deactivated_at, stored.deactivated_by]).toEqual([null, null]);
    expect(await verifySignIn(db, partner.email, PASSWORD, ADDRESS)).toMatchObject({ ok: true });
  });
});

describe("the admins who run the platform", () => {
  it("an admin cannot deactivate themselves", async () => {
    const [admin] = await onlyAdmins(2);
    expect(await deactivateUser(db, { userId: admin!, adminId: admin! })).toEqual({
      ok: false,
      code: "forbidden",
      message: SELF_DEACTIVATION_MESSAGE,
    });
    expect((await userRow(admin!)).deactivated_at).toBeNull();
  });

  it("the last active admin stays active, and a deactivated admin's late request changes nothing", async () => {
    const [first, second] = await onlyAdmins(2);
    const buyer = await makeUser("buyer");
    expect((await deactivateUser(db, { userId: second!, adminId: first! })).ok).toBe(true);
    // The second admin's request was let in before they were deactivated.
    expect(await deactivateUser(db, { userId: first!, adminId: second! })).toEqual({
      ok: false,
      code: "conflict",
      message: LAST_ACTIVE_ADMIN_MESSAGE,
    });
    expect(await deactivateUser(db, { userId: buyer, adminId: second! })).toEqual({
      ok: false,
      code: "forbidden",
      message: NO_LONGER_ADMIN_MESSAGE,
    });
    expect((await userRow(first!)).deactivated_at).toBeNull();
    expect((await userRow(buyer)).deactivated_at).toBeNull();
  });

  it("two admins deactivating each other at once: one of them stays", async () => {
    const [first, second] = await onlyAdmins(2);
    const results = await Promise.all([
      deactivateUser(db, { userId: second!, adminId: first! }),
      deactivateUser(db, { userId: first!, adminId: second! }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const active = await db
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .where("deactivated_at", "is", null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it("a deactivated admin does not count as one: the last active admin keeps the role", async () => {
    const [first, second] = await onlyAdmins(2);
    await deactivateUser(db, { userId: second!, adminId: first! });
    expect(await changeUserRole(db, { userId: first!, role: "buyer" })).toEqual({
      ok: false,
      code: "conflict",
      message: LAST_ADMIN_MESSAGE,
    });
    expect((await userRow(first!)).role).toBe("admin");
  });
});

describe("the users page", () => {
  it("deactivates with a plain POST, shows «Desactivado» under its filter, and reactivates", async () => {
    const page = await import("~/routes/admin.users");
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer", { companyName: "Ferretería Desactivable" });
    const cookie = await signedIn(admin);
    const buyerCookie = await signedIn(buyer);
    const list = async (query: string) =>
      (
        (await answer(() => page.loader(args(get(`/admin/users?${query}`, cookie))))) as {
          data: Awaited<ReturnType<typeof page.loader>>;
        }
      ).data;

    const done = (await answer(() =>
      page.action(
        args(
          post("/admin/users?q=Desactivable", cookie, {
            intent: "deactivate",
            userId: String(buyer),
          }),
        ),
      ),
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/users?q=Desactivable");
    expect(await getOptionalUser(get("/buyer", buyerCookie))).toBeNull();

    const deactivated = await list("status=deactivated&q=Desactivable");
    expect(deactivated.users.map((u) => u.id)).toEqual([buyer]);
    expect(deactivated.total).toBe(1);
    expect(deactivated.users[0]!.deactivated_at).not.toBeNull();
    expect((await list("status=active&q=Desactivable")).users).toEqual([]);

    const self = (await answer(() =>
      page.action(
        args(post("/admin/users", cookie, { intent: "deactivate", userId: String(admin) })),
      ),
    )) as Reply;
    expect(self.status).toBe(403);
    expect(self.data.result.error?.[""]).toEqual([SELF_DEACTIVATION_MESSAGE]);
    expect((await userRow(admin)).deactivated_at).toBeNull();

    await answer(() =>
      page.action(
        args(post("/admin/users", cookie, { intent: "reactivate", userId: String(buyer) })),
      ),
    );
    expect((await list("status=active&q=Desactivable")).users.map((u) => u.id)).toEqual([buyer]);
    expect((await list("status=deactivated&q=Desactivable")).users).toEqual([]);
  });
});

describe("inviting a user", () => {
  const invite = async (cookie: string, fields: Record<string, string>) => {
    const page = await import("~/routes/admin.users");
    return answer(() =>
      page.action(args(post("/admin/users", cookie, { intent: "invite", ...fields }))),
    );
  };
  const lucia = {
    first_name: "Lucía",
    last_name: "Campos",
    email: "Lucia.Campos@Ejemplo.test",
    company_name: "Ferretería Norte",
    role: "partner",
  };

  it("creates the account without a password and e-mails «Activa tu cuenta»; the link sets the password and signs in", async () => {
    const admin = await makeUser("admin");
    const cookie = await signedIn(admin);
    const sent = (await invite(cookie, lucia)) as Response;
    expect(sent.status).toBe(302);

    const email = "lucia.campos@ejemplo.test";
    const user = (await userByEmail(email))!;
    expect(user).toMatchObject({
      first_name: "Lucía",
      last_name: "Campos",
      company_name: "Ferretería Norte",
      role: "partner",
      email_verified_at: null,
      password_hash: NO_PASSWORD_HASH,
      deactivated_at: null,
    });
    const tokens = await db
      .selectFrom("auth_tokens")
      .select(["purpose", "expires_at", "used_at"])
      .where("user_id", "=", user.id)
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.purpose).toBe("invitation");
    const lifetime = Date.parse(tokens[0]!.expires_at) - Date.now();
    expect(Math.abs(lifetime - 7 * 86_400_000)).toBeLessThan(60_000);
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe("Activa tu cuenta de CotizaHub");
    expect(mail!.text_body).toContain("te invitó a CotizaHub como socio de Ferretería Norte");
    expect(mail!.text_body).toContain("El enlace vence en 7 días.");
    expect(mail!.text_body).toContain("Activa tu cuenta");

    // Before choosing a password nothing tells the account exists.
    expect(await verifySignIn(db, email, "", ADDRESS)).toMatchObject({ reason: "invalid" });
    expect(await verifySignIn(db, email, NO_PASSWORD_HASH, ADDRESS)).toMatchObject({
      reason: "invalid",
    });

    const token = await linkTokenIn(email);
    const reset = await import("~/routes/auth.reset");
    const path = `/auth/reset?token=${token}`;
    const shown = (await answer(() => reset.loader(args(get(path))))) as Answered;
    expect(shown.data).toEqual({ token, invitation: true });

    const activated = (await answer(() =>
      reset.action(
        args(post(path, "", { token, password: "Mi-clave-789", confirm_password: "Mi-clave-789" })),
      ),
    )) as Response;
    expect(activated.status).toBe(302);
    expect(activated.headers.get("Location")).toBe("/partner");
    const session = /__session=[^;]+/.exec(activated.headers.get("Set-Cookie") ?? "")?.[0];
    expect((await getOptionalUser(get("/partner", session!)))?.id).toBe(user.id);
    const stored = (await userByEmail(email))!;
    expect(stored.email_verified_at).not.toBeNull();
    expect(await verifyPassword("Mi-clave-789", stored.password_hash)).toBe(true);
    expect(await verifySignIn(db, email, "Mi-clave-789", ADDRESS)).toMatchObject({ ok: true });

    // The same link again: used.
    const again = (await answer(() => reset.loader(args(get(path))))) as Answered;
    expect(again.data).toEqual({ token: null, invitation: true });
    const reused = (await answer(() =>
      reset.action(
        args(post(path, "", { token, password: "Otra-789", confirm_password: "Otra-789" })),
      ),
    )) as Reply;
    expect(reused.status).toBe(400);
    expect(reused.data.result.error?.[""]).toEqual([
      "El enlace de invitación ya fue usado o venció. Pide una nueva invitación.",
    ]);
    expect(await verifyPassword("Mi-clave-789", (await userByEmail(email))!.password_hash)).toBe(
      true,
    );
    expect(await resendInvitation(db, { userId: user.id, adminId: admin })).toMatchObject({
      ok: false,
      code: "conflict",
      message: ALREADY_ACTIVATED_MESSAGE,
    });
  });

  it("an expired invitation link is refused and sets nothing", async () => {
    const admin = await makeUser("admin");
    const result = await inviteUser(db, {
      input: {
        email: "vencida@ejemplo.test",
        firstName: "Vera",
        lastName: "Vencida",
        companyName: null,
        role: "buyer",
      },
      adminId: admin,
    });
    expect(result.ok).toBe(true);
    const token = await linkTokenIn("vencida@ejemplo.test");
    await db
      .updateTable("auth_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("purpose", "=", "invitation")
      .where("used_at", "is", null)
      .execute();

    const reset = await import("~/routes/auth.reset");
    const path = `/auth/reset?token=${token}`;
    expect(((await answer(() => reset.loader(args(get(path))))) as Answered).data).toEqual({
      token: null,
      invitation: true,
    });
    const refused = (await answer(() =>
      reset.action(
        args(post(path, "", { token, password: "Clave-456", confirm_password: "Clave-456" })),
      ),
    )) as Reply;
    expect(refused.status).toBe(400);
    const stored = (await userByEmail("vencida@ejemplo.test"))!;
    expect(stored.password_hash).toBe(NO_PASSWORD_HASH);
    expect(stored.email_verified_at).toBeNull();
  });

  it("an e-mail already registered is refused next to the field and nothing is stored", async () => {
    const admin = await makeUser("admin");
    const cookie = await signedIn(admin);
    const existing = (await userRow(await makeUser("buyer"))).email;
    const before = await Promise.all([count("users"), count("auth_tokens"), count("mail_outbox")]);

    const taken = (await invite(cookie, { ...lucia, email: existing.toUpperCase() })) as Reply;
    expect(taken.status).toBe(409);
    expect(taken.data.result.error).toEqual({ email: [EMAIL_TAKEN_MESSAGE] });

    const incomplete = (await invite(cookie, { ...lucia, first_name: "", role: "jefe" })) as Reply;
    expect(incomplete.status).toBe(400);
    expect(incomplete.data.result.error).toMatchObject({
      first_name: ["El nombre es obligatorio."],
      role: ["Elige un rol válido."],
    });

    expect(await Promise.all([count("users"), count("auth_tokens"), count("mail_outbox")])).toEqual(
      before,
    );
  });

  it("resends the invitation of someone who never set a password: only the new link works", async () => {
    const admin = await makeUser("admin");
    const email = "reenvio@ejemplo.test";
    const invited = await inviteUser(db, {
      input: { email, firstName: "Rita", lastName: "Reenvío", companyName: null, role: "buyer" },
      adminId: admin,
    });
    if (!invited.ok) throw new Error(invited.message);
    const first = await linkTokenIn(email);

    expect(await resendInvitation(db, { userId: invited.value.userId, adminId: admin })).toEqual({
      ok: true,
      value: { email },
    });
    const second = await linkTokenIn(email);
    expect(second).not.toBe(first);
    expect(await mailsTo(email)).toHaveLength(2);
    expect(await findTokenUser(db, first, "invitation")).toBeNull();
    expect(await findTokenUser(db, second, "invitation")).toBe(invited.value.userId);

    // Deactivating the invited account ends its link too; it must be reactivated to resend.
    await deactivateUser(db, { userId: invited.value.userId, adminId: admin });
    expect(await findTokenUser(db, second, "invitation")).toBeNull();
    expect(await resendInvitation(db, { userId: invited.value.userId, adminId: admin })).toEqual({
      ok: false,
      code: "locked",
      message: REACTIVATE_FIRST_MESSAGE,
    });
    expect(await mailsTo(email)).toHaveLength(2);
  });
});

describe("featuring a partner on the landing («Socio Verificado»)", () => {
  const featuredRow = (id: number) =>
    db
      .selectFrom("users")
      .select(["is_featured_partner", "updated_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  /** A partner invited by `admin` who has not chosen a password yet. */
  async function invitedPartner(admin: number, email: string, companyName: string) {
    const invited = await inviteUser(db, {
      input: {
        email,
        firstName: "Inés",
        lastName: "Pendiente",
        companyName,
        role: "partner",
      },
      adminId: admin,
    });
    if (!invited.ok) throw new Error(invited.message);
    return invited.value.userId;
  }

  it("refuses a partner whose invitation is pending, stores nothing, and allows it once activated", async () => {
    const admin = await makeUser("admin");
    const partner = await invitedPartner(admin, "ines.pendiente@ejemplo.test", "Activará S.A.");
    const before = await featuredRow(partner);
    expect(await setPartnerFeatured(db, { partnerId: partner, featured: true })).toEqual({
      ok: false,
      code: "locked",
      message: FEATURE_PENDING_MESSAGE,
    });
    expect(await featuredRow(partner)).toEqual(before);
    expect(before.is_featured_partner).toBe(0);

    // The desk's page: the refusal is shown on the form, and the card knows the invitation is pending.
    const page = await import("~/routes/admin.partners");
    const cookie = await signedIn(admin);
    const refused = (await answer(() =>
      page.action(
        args(
          post("/admin/partners", cookie, {
            intent: "featured",
            partnerId: String(partner),
            featured: "1",
          }),
        ),
      ),
    )) as Reply;
    expect(refused.status).toBe(423);
    expect(refused.data.result.error?.[""]).toEqual([FEATURE_PENDING_MESSAGE]);
    expect(await featuredRow(partner)).toEqual(before);
    const listed = (await answer(() =>
      page.loader(args(get("/admin/partners?q=ines.pendiente", cookie))),
    )) as { data: Awaited<ReturnType<typeof page.loader>> };
    expect(listed.data.partners.map((p) => [p.id, p.invitation_pending])).toEqual([[partner, 1]]);

    await setPasswordHash(db, partner, await hashPassword(PASSWORD));
    expect(await setPartnerFeatured(db, { partnerId: partner, featured: true })).toEqual({
      ok: true,
      value: undefined,
    });
    expect((await featuredRow(partner)).is_featured_partner).toBe(1);
  });

  it("the landing never shows a pending or deactivated partner, even with the flag already set", async () => {
    const admin = await makeUser("admin");
    const active = await makeUser("partner", { companyName: "Activa Destacada" });
    const pending = await invitedPartner(
      admin,
      "pendiente.destacada@ejemplo.test",
      "Pendiente Destacada",
    );
    const gone = await makeUser("partner", { companyName: "Baja Destacada" });
    await deactivateUser(db, { userId: gone, adminId: admin });
    await db
      .updateTable("users")
      .set({ is_featured_partner: 1 })
      .where("id", "in", [active, pending, gone])
      .execute();

    const featured = (await listLandingPartners(db, 1000)).map((p) => p.id);
    expect(featured).toContain(active);
    expect(featured).not.toContain(pending);
    expect(featured).not.toContain(gone);
    const landing = await import("~/routes/_index");
    const shown = (await answer(() => landing.loader(args(get("/"))))) as {
      data: Awaited<ReturnType<typeof landing.loader>>;
    };
    const names = shown.data.partners.map((p) => p.name);
    expect(names).toContain("Activa Destacada");
    expect(names).not.toContain("Pendiente Destacada");
    expect(names).not.toContain("Baja Destacada");
    // An operator may still take a pending partner off the landing.
    expect((await setPartnerFeatured(db, { partnerId: pending, featured: false })).ok).toBe(true);
    expect((await featuredRow(pending)).is_featured_partner).toBe(0);
  });
});
