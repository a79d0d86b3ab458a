import { describe, expect, it } from "vitest";
import { changeUserRole } from "~/models/admin-user.server";
import { listAdminRequests } from "~/models/quote-request.server";
import { assignPartner, submitPartnerQuote } from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { readFlash, startSession } from "~/services/session.server";
import { makeRequest, makeUser } from "./factories";
import { first } from "./pages";

const BASE = "http://localhost:3999";
const inTwoDays = () => new Date(Date.now() + 48 * 3600_000).toISOString();

/** A request with these partners invited, its deadline two days ahead. */
async function round(admin: number, title: string, partners: number[]) {
  const buyer = await makeUser("buyer");
  const requestId = await makeRequest(buyer, "pending", title);
  await db
    .updateTable("quote_requests")
    .set({ quote_deadline: inTwoDays() })
    .where("id", "=", requestId)
    .execute();
  for (const partnerId of partners)
    expect((await assignPartner(db, { requestId, partnerId, adminId: admin })).ok).toBe(true);
  return requestId;
}

const offer = (requestId: number, partnerId: number) =>
  submitPartnerQuote(db, { requestId, partnerId, amountCents: 150_000, notes: null, file: null });

async function stateOf(requestId: number, partnerId: number) {
  const row = await db
    .selectFrom("partner_assignments")
    .select("state")
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .executeTakeFirstOrThrow();
  return row.state;
}

/** The row of the operator's request list («Socios / ofertas», «Nadie cotiza», the row action). */
async function deskRow(requestId: number) {
  const { rows } = await listAdminRequests(db, { q: "", status: "assigned", page: first });
  const row = rows.find((r) => r.id === requestId);
  if (!row) throw new Error(`La solicitud #${requestId} no está en la lista`);
  return {
    partners: row.assignment_count,
    offers: row.partner_quote_count,
    // What the list shows as «Nadie cotiza» and answers with «Asignar socios».
    nobodyQuoting: row.status === "assigned" && row.assignment_count === 0,
  };
}

const lastHistory = async (requestId: number) =>
  db
    .selectFrom("request_status_history")
    .select(["event", "note", "actor_id"])
    .where("quote_request_id", "=", requestId)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();

describe("a partner who stops being one", () => {
  it("has their invitations without an offer withdrawn; offers and other partners stay", async () => {
    const admin = await makeUser("admin");
    const leaving = await makeUser("partner", { companyName: "Se Va S.A." });
    const staying = await makeUser("partner", { companyName: "Se Queda S.A." });
    const alone = await round(admin, "Solo invitado", [leaving]);
    const shared = await round(admin, "Invitados dos", [leaving, staying]);
    const offered = await round(admin, "Con oferta", [leaving, staying]);
    expect((await offer(offered, leaving)).ok).toBe(true);
    expect(await deskRow(alone)).toEqual({ partners: 1, offers: 0, nobodyQuoting: false });

    expect(await changeUserRole(db, { userId: leaving, role: "buyer", adminId: admin })).toEqual({
      ok: true,
      value: { changed: true, withdrawnInvitations: 2 },
    });

    expect(await stateOf(alone, leaving)).toBe("withdrawn");
    expect(await deskRow(alone)).toEqual({ partners: 0, offers: 0, nobodyQuoting: true });
    expect(await lastHistory(alone)).toEqual({
      event: "withdrawn",
      note: expect.stringMatching(/^Asignación de Pedro Prueba\d+ retirada: ya no es socio$/),
      actor_id: admin,
    });
    expect(await stateOf(shared, leaving)).toBe("withdrawn");
    expect(await stateOf(shared, staying)).toBe("invited");
    expect(await deskRow(shared)).toEqual({ partners: 1, offers: 0, nobodyQuoting: false });
    // An offer already sent stays for the operator to choose from, as on deactivation.
    expect(await stateOf(offered, leaving)).toBe("offered");
    expect(await stateOf(offered, staying)).toBe("invited");
    expect(await deskRow(offered)).toEqual({ partners: 2, offers: 1, nobodyQuoting: false });
  });

  it("partner to admin withdraws too; a role change of someone who was no partner withdraws nothing", async () => {
    const admin = await makeUser("admin");
    const promoted = await makeUser("partner");
    const other = await makeUser("partner");
    const requestId = await round(admin, "Ahora es administrador", [promoted, other]);
    expect(await changeUserRole(db, { userId: promoted, role: "admin", adminId: admin })).toEqual({
      ok: true,
      value: { changed: true, withdrawnInvitations: 1 },
    });
    expect(await stateOf(requestId, promoted)).toBe("withdrawn");
    expect(await stateOf(requestId, other)).toBe("invited");

    // Back to partner: nothing comes back by itself, and admin → buyer had nothing to withdraw.
    expect(await changeUserRole(db, { userId: promoted, role: "partner", adminId: admin })).toEqual(
      { ok: true, value: { changed: true } },
    );
    expect(await stateOf(requestId, promoted)).toBe("withdrawn");
    expect(await changeUserRole(db, { userId: other, role: "partner", adminId: admin })).toEqual({
      ok: true,
      value: { changed: false },
    });
    // A partner with nothing open: the count is there, and says none.
    const idle = await makeUser("partner");
    expect(await changeUserRole(db, { userId: idle, role: "buyer", adminId: admin })).toEqual({
      ok: true,
      value: { changed: true, withdrawnInvitations: 0 },
    });
  });
});

describe("the users page", () => {
  const act = async (cookie: string, fields: Record<string, string>) => {
    const page = await import("~/routes/admin.users");
    const response = (await page.action({
      request: new Request(`${BASE}/admin/users`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(302);
    const flash = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const { value } = await readFlash(
      new Request(`${BASE}/admin/users`, { headers: { Cookie: flash } }),
      "toast",
    );
    return value;
  };

  it("says how many invitations the role change withdrew, and only when there were any", async () => {
    const admin = await makeUser("admin");
    const cookie = (await startSession(db, new Request(`${BASE}/auth`), admin)).split(";")[0]!;
    const one = await makeUser("partner");
    const two = await makeUser("partner");
    await round(admin, "Primera", [one, two]);
    await round(admin, "Segunda", [two]);

    expect(await act(cookie, { intent: "role", userId: String(one), role: "buyer" })).toEqual({
      type: "success",
      title: "Éxito",
      description: "Rol actualizado. Se retiró 1 invitación que esperaba su oferta.",
    });
    expect(await act(cookie, { intent: "role", userId: String(two), role: "buyer" })).toEqual({
      type: "success",
      title: "Éxito",
      description: "Rol actualizado. Se retiraron 2 invitaciones que esperaban su oferta.",
    });
    expect(await act(cookie, { intent: "role", userId: String(two), role: "partner" })).toEqual({
      type: "success",
      title: "Éxito",
      description: "Rol actualizado",
    });
  });
});
