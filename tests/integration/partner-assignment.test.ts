import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestStatus, Role } from "../../db/schema";
import {
  getAssignmentForPartner,
  getPartnerCounters,
  likePattern,
  listAssignments,
  listLatestAssignments,
  listPartnerQuotes,
  performanceFrom,
} from "~/models/partner-assignment.server";
import { submitPartnerQuote } from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { idFrom as requestIdFrom } from "~/utils/ids";

let sequence = 0;

async function createUser(role: Role, companyName: string | null = null): Promise<number> {
  sequence += 1;
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto("users")
    .values({
      email: `${role}.${sequence}@ejemplo.test`,
      password_hash: "x",
      first_name: `Nombre${sequence}`,
      last_name: "Prueba",
      company_name: companyName,
      phone: "+52 55 0000 0000",
      role,
      email_verified_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function createRequest(
  buyerId: number,
  {
    title,
    description = null,
    status = "assigned",
  }: { title: string; description?: string | null; status?: RequestStatus },
): Promise<number> {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto("quote_requests")
    .values({
      buyer_id: buyerId,
      title,
      description,
      file_name: "requisitos.pdf",
      file_type: "application/pdf",
      file_key: `2026/11/${title.replace(/\W/g, "")}.pdf`,
      file_size: 10,
      status,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** Assignments get increasing timestamps so "latest" has a defined order. */
let clock = Date.parse("2026-11-01T00:00:00Z");
async function assign(requestId: number, partnerId: number): Promise<void> {
  clock += 60_000;
  await db
    .insertInto("partner_assignments")
    .values({
      quote_request_id: requestId,
      partner_id: partnerId,
      assigned_at: new Date(clock).toISOString(),
    })
    .execute();
}

async function quote(
  requestId: number,
  partnerId: number,
  amountCents: number,
  selected = false,
): Promise<number> {
  const stamp = new Date().toISOString();
  const { id } = await db
    .insertInto("partner_quotes")
    .values({
      quote_request_id: requestId,
      partner_id: partnerId,
      quoted_amount_cents: amountCents,
      notes: null,
      is_selected: selected ? 1 : 0,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // The assignment's state follows its offer, as submitPartnerQuote and the selection keep it.
  await db
    .updateTable("partner_assignments")
    .set({ state: selected ? "selected" : "offered" })
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .execute();
  return id;
}

async function snapshot() {
  return {
    quotes: await db.selectFrom("partner_quotes").selectAll().orderBy("id").execute(),
    requests: await db
      .selectFrom("quote_requests")
      .select(["id", "status", "updated_at"])
      .orderBy("id")
      .execute(),
    notifications: await db
      .selectFrom("notifications")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  };
}

let partner: number;
let otherPartner: number;
let buyerAcme: number;
let buyerNoCompany: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  partner = await createUser("partner", "Proveedor Uno");
  otherPartner = await createUser("partner", "Proveedor Dos");
  await createUser("admin");
  buyerAcme = await createUser("buyer", "Acme Petróleo S.A.");
  buyerNoCompany = await createUser("buyer", null);

  // Partner: pending (assigned, no quote), quoted (in evaluation), won (selected), lost (another
  // partner's quote selected), closed without quoting, and one with a 100% discount in the title.
  ids.pending = await createRequest(buyerAcme, {
    title: "Tubería de acero",
    description: "Tubería sin costura de 6 pulgadas",
  });
  ids.quoted = await createRequest(buyerNoCompany, {
    title: "Uniformes de trabajo",
    description: "200 uniformes ignífugos",
  });
  ids.won = await createRequest(buyerAcme, { title: "Válvulas industriales", status: "quoted" });
  ids.lost = await createRequest(buyerNoCompany, { title: "Cascos", status: "quoted" });
  ids.closed = await createRequest(buyerAcme, { title: "Guantes", status: "rejected" });
  ids.percent = await createRequest(buyerNoCompany, {
    title: "Oferta 100% garantizada",
    description: "Lote_especial",
  });
  // Not assigned to the partner at all, and assigned only to the other partner.
  ids.unassigned = await createRequest(buyerAcme, { title: "Tubería de cobre" });
  ids.othersOnly = await createRequest(buyerAcme, { title: "Tubería de PVC" });

  for (const key of ["pending", "quoted", "won", "lost", "closed", "percent"])
    await assign(ids[key]!, partner);
  await assign(ids.lost!, otherPartner);
  await assign(ids.othersOnly!, otherPartner);

  await quote(ids.quoted!, partner, 150_000);
  await quote(ids.won!, partner, 250_000, true);
  await quote(ids.lost!, partner, 90_000);
  await quote(ids.lost!, otherPartner, 80_000, true);
  await quote(ids.othersOnly!, otherPartner, 70_000);
});

describe("counters and performance", () => {
  it("counts only the partner's own assignments and quotes", async () => {
    const counters = await getPartnerCounters(db, partner);
    expect(counters).toEqual({
      total: 6,
      pending: 2, // "pending" and "percent"; "closed" is rejected so it cannot be quoted
      submitted: 3,
      selected: 1,
      // quoted (in evaluation) + won (selected); lost is excluded
      potentialRevenueCents: 150_000 + 250_000,
      selectedRevenueCents: 250_000,
    });
    expect(performanceFrom(counters)).toEqual({
      responseRate: 50,
      successRate: 33.3,
      revenuePerSelectedCents: 250_000,
    });
  });

  it("gives empty counters and no rates to a partner with nothing assigned", async () => {
    const newcomer = await createUser("partner");
    const counters = await getPartnerCounters(db, newcomer);
    expect(counters.total).toBe(0);
    expect(counters.potentialRevenueCents).toBe(0);
    expect(performanceFrom(counters)).toEqual({
      responseRate: null,
      successRate: null,
      revenuePerSelectedCents: null,
    });
  });

  it("lists the latest assignments newest first, with the own quote", async () => {
    const latest = await listLatestAssignments(db, partner);
    expect(latest.map((a) => a.id)).toEqual(
      ["percent", "closed", "lost", "won", "quoted", "pending"].map((k) => ids[k]),
    );
    const lost = latest.find((a) => a.id === ids.lost)!;
    expect(lost.quoted_amount_cents).toBe(90_000);
    expect(lost.is_selected).toBe(0);
    expect((await listLatestAssignments(db, partner, 2)).length).toBe(2);
  });
});

describe("assignments list", () => {
  const titles = async (input: Parameters<typeof listAssignments>[1]) =>
    (await listAssignments(db, input)).items.map((a) => a.title).sort();

  it("filters all | pending | quoted | won", async () => {
    expect(await titles({ partnerId: partner })).toHaveLength(6);
    expect(await titles({ partnerId: partner, filter: "pending" })).toEqual([
      "Oferta 100% garantizada",
      "Tubería de acero",
    ]);
    expect(await titles({ partnerId: partner, filter: "quoted" })).toEqual([
      "Cascos",
      "Uniformes de trabajo",
      "Válvulas industriales",
    ]);
    expect(await titles({ partnerId: partner, filter: "won" })).toEqual(["Válvulas industriales"]);
  });

  it("searches title, description and buyer company; reports matched and overall", async () => {
    const byTitle = await listAssignments(db, { partnerId: partner, search: "tubería" });
    expect(byTitle.items.map((a) => a.title)).toEqual(["Tubería de acero"]);
    expect(byTitle.matched).toBe(1);
    expect(byTitle.overall).toBe(6);
    expect(await titles({ partnerId: partner, search: "ignífugos" })).toEqual([
      "Uniformes de trabajo",
    ]);
    expect(await titles({ partnerId: partner, search: "Acme" })).toEqual([
      "Guantes",
      "Tubería de acero",
      "Válvulas industriales",
    ]);
    expect(await titles({ partnerId: partner, search: "acme", filter: "won" })).toEqual([
      "Válvulas industriales",
    ]);
  });

  it("treats % and _ in the search as literal characters", async () => {
    expect(likePattern("100%_a\\")).toBe("%100\\%\\_a\\\\%");
    expect(await titles({ partnerId: partner, search: "100%" })).toEqual([
      "Oferta 100% garantizada",
    ]);
    expect(await titles({ partnerId: partner, search: "%" })).toEqual(["Oferta 100% garantizada"]);
    expect(await titles({ partnerId: partner, search: "_" })).toEqual(["Oferta 100% garantizada"]);
    expect(await titles({ partnerId: partner, search: "Lote_esp" })).toEqual([
      "Oferta 100% garantizada",
    ]);
    expect(await titles({ partnerId: partner, search: "Lote%esp" })).toEqual([]);
  });

  it("pages 20 at a time with the total of matches", async () => {
    const busy = await createUser("partner");
    for (let i = 0; i < 23; i++)
      await assign(await createRequest(buyerAcme, { title: `Lote ${i}` }), busy);
    const first = await listAssignments(db, { partnerId: busy });
    const second = await listAssignments(db, {
      partnerId: busy,
      page: { kind: "numbered", page: 2 },
    });
    expect(first.items).toHaveLength(20);
    expect(second.items).toHaveLength(3);
    expect(first.matched).toBe(23);
    expect(new Set([...first.items, ...second.items].map((a) => a.id)).size).toBe(23);
  });
});

describe("scoping", () => {
  it("never shows a request that is not assigned to the partner", async () => {
    expect(
      await getAssignmentForPartner(db, { requestId: ids.unassigned!, partnerId: partner }),
    ).toBeUndefined();
    expect(
      await getAssignmentForPartner(db, { requestId: ids.othersOnly!, partnerId: partner }),
    ).toBeUndefined();
    expect(
      await getAssignmentForPartner(db, { requestId: 999_999, partnerId: partner }),
    ).toBeUndefined();
    const all = await listAssignments(db, { partnerId: partner, search: "Tubería" });
    expect(all.items.map((a) => a.id)).toEqual([ids.pending]);
  });

  it("shows the own quote only, never the other partner's on a shared request", async () => {
    const mine = await getAssignmentForPartner(db, { requestId: ids.lost!, partnerId: partner });
    expect(mine?.quote?.amountCents).toBe(90_000);
    expect(mine?.quote?.isSelected).toBe(0);
    const theirs = await getAssignmentForPartner(db, {
      requestId: ids.lost!,
      partnerId: otherPartner,
    });
    expect(theirs?.quote?.amountCents).toBe(80_000);
    expect(theirs?.quote?.isSelected).toBe(1);
  });

  it("returns the buyer's contact details with the request", async () => {
    const detail = await getAssignmentForPartner(db, {
      requestId: ids.pending!,
      partnerId: partner,
    });
    expect(detail?.request.title).toBe("Tubería de acero");
    expect(detail?.buyer.company).toBe("Acme Petróleo S.A.");
    expect(detail?.buyer.email).toMatch(/@ejemplo\.test$/);
    expect(detail?.quote).toBeUndefined();
  });

  it("lists only the partner's own quotes", async () => {
    const mine = await listPartnerQuotes(db, { partnerId: partner });
    expect(mine.total).toBe(3);
    expect(mine.items.map((q) => q.title).sort()).toEqual([
      "Cascos",
      "Uniformes de trabajo",
      "Válvulas industriales",
    ]);
    const theirs = await listPartnerQuotes(db, { partnerId: otherPartner });
    expect(theirs.total).toBe(2);
    expect(theirs.items.map((q) => q.request_id).sort()).toEqual([ids.lost, ids.othersOnly].sort());
  });

  it("reads ids from the URL strictly", () => {
    expect(requestIdFrom("12")).toBe(12);
    for (const raw of [undefined, "", "0", "-1", "1.5", "1e3", "12abc", "9".repeat(20)])
      expect(requestIdFrom(raw)).toBeNull();
  });
});

describe("submitPartnerQuote refusals leave the database unchanged", () => {
  const input = (requestId: number, partnerId: number, amountCents = 200_000) => ({
    requestId,
    partnerId,
    amountCents,
    notes: "Entrega en 10 días",
    file: { key: "2026/11/nuevo.pdf", name: "cotizacion.pdf", type: "application/pdf" },
  });

  it.each([
    ["a request not assigned to the partner", () => input(ids.unassigned!, partner), "not_found"],
    [
      "a request assigned only to another partner",
      () => input(ids.othersOnly!, partner),
      "not_found",
    ],
    ["a request that does not exist", () => input(999_999, partner), "not_found"],
    ["a request no longer assigned", () => input(ids.closed!, partner), "conflict"],
    ["an amount below the minimum", () => input(ids.pending!, partner, 9_999), "invalid"],
  ])("refuses %s", async (_label, make, error) => {
    const before = await snapshot();
    const result = await submitPartnerQuote(db, make());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(error);
      expect(result.message).toMatch(/[a-zá-ú]/i);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses to change a selected quote", async () => {
    // A selected quote on a request that is somehow still assigned (e.g. an operator's override).
    const request = await createRequest(buyerAcme, { title: "Seleccionada aún asignada" });
    await assign(request, partner);
    await quote(request, partner, 120_000, true);
    const before = await snapshot();
    const result = await submitPartnerQuote(db, input(request, partner));
    expect(result).toMatchObject({ ok: false, code: "locked" });
    expect(await snapshot()).toEqual(before);
  });

  it("creates, then updates the own quote and reports the replaced file", async () => {
    const request = await createRequest(buyerAcme, { title: "Nueva para cotizar" });
    await assign(request, partner);
    const created = await submitPartnerQuote(db, input(request, partner, 123_450));
    expect(created).toEqual({ ok: true, value: { updated: false, replacedFileKey: null } });
    const updated = await submitPartnerQuote(db, {
      ...input(request, partner, 130_000),
      file: { key: "2026/11/otro.pdf", name: "v2.pdf", type: "application/pdf" },
    });
    expect(updated).toEqual({
      ok: true,
      value: { updated: true, replacedFileKey: "2026/11/nuevo.pdf" },
    });
    const detail = await getAssignmentForPartner(db, { requestId: request, partnerId: partner });
    expect(detail?.quote).toMatchObject({ amountCents: 130_000, fileName: "v2.pdf" });
  });
});

describe("query plans", () => {
  it("reach the partner's rows through indexes, not by scanning requests", async () => {
    const plan = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const compiled = query.compile();
      const rows = await sql
        .raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql.replace(/\?/g, () => "1")}`)
        .execute(db);
      return rows.rows.map((r) => r.detail).join("\n");
    };
    const list = db
      .selectFrom("partner_assignments as pa")
      .innerJoin("quote_requests as qr", "qr.id", "pa.quote_request_id")
      .leftJoin("partner_quotes as pq", (join) =>
        join
          .onRef("pq.quote_request_id", "=", "pa.quote_request_id")
          .onRef("pq.partner_id", "=", "pa.partner_id"),
      )
      .select(["qr.id", "pq.id as quote_id"])
      .where("pa.partner_id", "=", partner)
      .orderBy("pa.assigned_at", "desc");
    const text = await plan(list);
    expect(text).toMatch(/partner_assignments_partner/);
    expect(text).not.toMatch(/SCAN (qr|quote_requests)\b/);
    expect(text).not.toMatch(/SCAN (pq|partner_quotes)\b/);
    const quotes = db
      .selectFrom("partner_quotes")
      .select("id")
      .where("partner_id", "=", partner)
      .orderBy("created_at", "desc");
    expect(await plan(quotes)).toMatch(/partner_quotes_partner/);
  });
});
