import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import { AssignmentBadge } from "~/components/partner/PartnerBadges";
import { Deadline } from "~/components/Deadline";
import type { DeadlineFilter, RequestSort } from "~/domain/deadline";
import { getPartnerCounters, listAssignments } from "~/models/partner-assignment.server";
import { exportAdminRequests, listAdminRequests } from "~/models/quote-request.server";
import { db } from "~/services/db.server";
import { startSession } from "~/services/session.server";
import { decodeCursor, type PageRequest } from "~/utils/keyset";
import { makeRequest, makeUser } from "./factories";

/**
 * Lists that tell the truth about the sourcing round (issue 11): the desk's «Plazo» filter and
 * deadline sort, the partner's assignments sorted by deadline with their own badge, the pages'
 * loaders as a person receives them.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The instant every model call below is asked at. */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (offset: number) => new Date(NOW.getTime() + offset).toISOString();

const first: PageRequest = { kind: "numbered", page: 1 };
const after = (cursor: string | null): PageRequest => ({
  kind: "after",
  cursor: decodeCursor(cursor)!,
});
const before = (cursor: string | null): PageRequest => ({
  kind: "before",
  cursor: decodeCursor(cursor)!,
});

/** Requests get increasing creation times, so "newest first" has one answer. */
let created = Date.parse("2026-01-01T00:00:00.000Z");
async function requestDue(
  buyerId: number,
  title: string,
  status: RequestStatus,
  deadlineOffset: number,
): Promise<number> {
  const id = await makeRequest(buyerId, status, title);
  created += 1000;
  await sql`UPDATE quote_requests SET quote_deadline = ${at(deadlineOffset)},
    created_at = ${new Date(created).toISOString()} WHERE id = ${id}`.execute(db);
  return id;
}

const desk: Record<string, number> = {};
const ties: number[] = [];

beforeAll(async () => {
  const buyer = await makeUser("buyer", { companyName: "Plazos Industriales" });
  desk.o1 = await requestDue(buyer, "Bomba de achique", "pending", -2 * HOUR);
  desk.o2 = await requestDue(buyer, "Pedido de juntas", "assigned", -30 * MIN);
  desk.o3 = await requestDue(buyer, "Pedido de válvulas", "assigned", 0);
  desk.d1 = await requestDue(buyer, "Pedido de guantes", "pending", HOUR);
  // Many requests sharing one deadline, as a migration gives the open ones.
  for (let i = 0; i < 25; i++)
    ties.push(
      await requestDue(buyer, `Lote compartido ${i}`, i % 2 ? "assigned" : "pending", 12 * HOUR),
    );
  desk.d2 = await requestDue(buyer, "Bomba dosificadora", "assigned", 23 * HOUR);
  desk.d3 = await requestDue(buyer, "Pedido de cascos", "assigned", DAY);
  desk.l1 = await requestDue(buyer, "Pedido de botas", "pending", DAY + HOUR);
  desk.l2 = await requestDue(buyer, "Pedido de overoles", "assigned", 3 * DAY);
  desk.c1 = await requestDue(buyer, "Bomba cotizada", "quoted", -5 * HOUR);
  desk.c2 = await requestDue(buyer, "Pedido pagado", "paid", -DAY);
  desk.c3 = await requestDue(buyer, "Pedido cancelado", "cancelled", -2 * HOUR);
  desk.c4 = await requestDue(buyer, "Pedido rechazado", "rejected", 2 * HOUR);
});

const list = (
  filters: {
    q?: string;
    status?: RequestStatus | null;
    deadline?: DeadlineFilter | null;
    sort?: RequestSort;
  },
  page: PageRequest = first,
) =>
  listAdminRequests(db, {
    q: filters.q ?? "",
    status: filters.status ?? null,
    deadline: filters.deadline ?? null,
    sort: filters.sort ?? "newest",
    page,
    now: NOW,
  });
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe("mesa de control: filtro «Plazo» y orden por plazo", () => {
  it("«Vencido» muestra las solicitudes abiertas cuyo plazo pasó, nunca las cerradas", async () => {
    const overdue = await list({ deadline: "overdue" });
    expect(ids(overdue.rows)).toEqual([desk.o3, desk.o2, desk.o1]);
    expect(overdue.total).toBe(3);
    expect(overdue.totalCapped).toBe(false);
    expect(ids((await list({ deadline: "overdue", sort: "deadline" })).rows)).toEqual([
      desk.o1,
      desk.o2,
      desk.o3,
    ]);
  });

  it("«Vence en 24 h» pagina hacia adelante y atrás, más reciente primero y por plazo", async () => {
    const due = [desk.d1!, ...ties, desk.d2!, desk.d3!];
    for (const sort of ["newest", "deadline"] as const) {
      const expected = sort === "deadline" ? due : [...due].reverse();
      const p1 = await list({ deadline: "due24h", sort });
      const p2 = await list({ deadline: "due24h", sort }, after(p1.pageInfo.next));
      expect(p1.total).toBe(28);
      expect(p1.pageInfo).toMatchObject({ page: 1, prev: null });
      expect(p2.pageInfo).toMatchObject({ page: 2, next: null });
      expect([...ids(p1.rows), ...ids(p2.rows)]).toEqual(expected);
      const back = await list({ deadline: "due24h", sort }, before(p2.pageInfo.prev));
      expect(ids(back.rows)).toEqual(ids(p1.rows));
      expect(back.pageInfo).toMatchObject({ page: 1, prev: null });
      const numbered = await list({ deadline: "due24h", sort }, { kind: "numbered", page: 2 });
      expect(ids(numbered.rows)).toEqual(ids(p2.rows));
    }
  });

  it("ordena todo por plazo, el más próximo primero, a través de plazos compartidos", async () => {
    const all = (
      await sql<{ id: number }>`SELECT id FROM quote_requests ORDER BY quote_deadline, id`.execute(
        db,
      )
    ).rows.map((r) => r.id);
    const pages: Awaited<ReturnType<typeof list>>[] = [await list({ sort: "deadline" })];
    while (pages.at(-1)!.pageInfo.next)
      pages.push(await list({ sort: "deadline" }, after(pages.at(-1)!.pageInfo.next)));
    expect(pages.flatMap((p) => ids(p.rows))).toEqual(all);
    expect(pages[0]!.total).toBe(all.length);
    // And back from the last page to the first, over the shared deadline again.
    let back = pages.at(-1)!;
    for (let i = pages.length - 2; i >= 0; i--) {
      back = await list({ sort: "deadline" }, before(back.pageInfo.prev));
      expect(ids(back.rows)).toEqual(ids(pages[i]!.rows));
    }
    expect(back.pageInfo.prev).toBeNull();
  });

  it("se combina con el estado y con la búsqueda", async () => {
    expect(ids((await list({ deadline: "overdue", status: "assigned" })).rows)).toEqual([
      desk.o3,
      desk.o2,
    ]);
    const pendingDue = await list({ deadline: "due24h", status: "pending", sort: "deadline" });
    expect(ids(pendingDue.rows)).toEqual([desk.d1, ...ties.filter((_, i) => i % 2 === 0)]);
    expect(pendingDue.total).toBe(14);
    // A closed status has no deadline that counts.
    const quotedOverdue = await list({ deadline: "overdue", status: "quoted" });
    expect(quotedOverdue).toMatchObject({ rows: [], total: 0 });
    expect(ids((await list({ deadline: "overdue", q: "bomba" })).rows)).toEqual([desk.o1]);
    expect(ids((await list({ deadline: "due24h", q: "bomba", sort: "deadline" })).rows)).toEqual([
      desk.d2,
    ]);
    expect(ids((await list({ q: "bomba", sort: "deadline" })).rows)).toEqual([
      desk.c1,
      desk.o1,
      desk.d2,
    ]);
    expect(ids((await list({ q: "bomba", status: "quoted", sort: "deadline" })).rows)).toEqual([
      desk.c1,
    ]);
    // A search matching more than the counting cap still reads the page in deadline order.
    const shared = await list({ q: "lote compartido", deadline: "due24h", sort: "deadline" });
    expect(ids(shared.rows)).toEqual(ties.slice(0, 20));
  });

  it("el filtro de estado tiene «Cancelado»", async () => {
    const cancelled = await list({ status: "cancelled" });
    expect(ids(cancelled.rows)).toContain(desk.c3);
    expect(cancelled.rows.every((r) => r.status === "cancelled")).toBe(true);
  });

  it("la exportación CSV lleva el mismo filtro «Plazo»", async () => {
    const exported: number[] = [];
    for await (const rows of exportAdminRequests(db, {
      q: "",
      status: null,
      deadline: "overdue",
      now: NOW,
    }))
      exported.push(...ids(rows));
    expect(exported).toEqual([desk.o3, desk.o2, desk.o1].sort((a, b) => b - a));
  });
});

describe("las asignaciones del socio: por plazo, con su propia insignia", () => {
  let partner = 0;
  const mine: Record<string, number> = {};

  beforeAll(async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer", { companyName: "Encargos del Sur" });
    partner = await makeUser("partner");
    const assign = async (
      key: string,
      status: RequestStatus,
      deadlineOffset: number,
      state: AssignmentState,
      offer?: { cents: number; selected?: boolean },
    ) => {
      mine[key] = await requestDue(buyer, `Encargo ${key}`, status, deadlineOffset);
      await db
        .insertInto("partner_assignments")
        .values({ quote_request_id: mine[key]!, partner_id: partner, assigned_by: admin, state })
        .execute();
      if (offer)
        await db
          .insertInto("partner_quotes")
          .values({
            quote_request_id: mine[key]!,
            partner_id: partner,
            quoted_amount_cents: offer.cents,
            is_selected: offer.selected ? 1 : 0,
            updated_at: NOW.toISOString(),
          })
          .execute();
    };
    await assign("abierta", "assigned", 5 * HOUR, "invited");
    await assign("ofertada", "assigned", 2 * DAY, "offered", { cents: 80_000 });
    await assign("vencida", "assigned", -HOUR, "invited");
    await assign("declinada", "assigned", HOUR, "declined");
    await assign("ganada", "quoted", -3 * DAY, "selected", { cents: 120_000, selected: true });
    await assign("cancelada", "cancelled", -DAY, "invited");
    await assign("retirada", "assigned", DAY, "withdrawn");
  });

  const order = ["abierta", "ofertada", "retirada", "declinada", "vencida", "cancelada", "ganada"];

  it("primero las que aún puede cotizar (plazo más próximo), luego las cerradas (plazo más reciente)", async () => {
    const page = await listAssignments(db, { partnerId: partner, now: NOW });
    expect(page.items.map((i) => i.id)).toEqual(order.map((k) => mine[k]));
    expect(page.matched).toBe(7);
  });

  it("pagina por cursor sin JavaScript, hacia adelante y hacia atrás", async () => {
    const read = (page: PageRequest) =>
      listAssignments(db, { partnerId: partner, page, pageSize: 3, now: NOW });
    const p1 = await read(first);
    const p2 = await read(after(p1.pageInfo.next));
    const p3 = await read(after(p2.pageInfo.next));
    expect([p1, p2, p3].map((p) => p.items.map((i) => i.title.replace("Encargo ", "")))).toEqual([
      order.slice(0, 3),
      order.slice(3, 6),
      order.slice(6),
    ]);
    expect(p3.pageInfo).toMatchObject({ page: 3, next: null });
    const back = await read(before(p3.pageInfo.prev));
    expect(back.items.map((i) => i.id)).toEqual(p2.items.map((i) => i.id));
    expect(back.pageInfo.page).toBe(2);
  });

  it("«pendientes» son las invitadas de solicitudes asignadas: nunca una declinada o retirada", async () => {
    const pending = await listAssignments(db, { partnerId: partner, filter: "pending", now: NOW });
    // The one past its deadline is still pending (invited, request assigned), after the open one.
    expect(pending.items.map((i) => i.id)).toEqual([mine.abierta, mine.vencida]);
    expect(pending.matched).toBe(2);
    expect((await getPartnerCounters(db, partner)).pending).toBe(2);
    const searched = await listAssignments(db, {
      partnerId: partner,
      search: "encargo",
      filter: "pending",
      now: NOW,
    });
    expect(searched.items.map((i) => i.id).sort()).toEqual([mine.abierta, mine.vencida].sort());
    expect(searched.matched).toBe(2);
  });

  it("cada fila dice dónde está su parte, no el estado de la solicitud", async () => {
    const items = (await listAssignments(db, { partnerId: partner, now: NOW })).items;
    const badge = (key: string) => {
      const item = items.find((i) => i.id === mine[key])!;
      return renderToStaticMarkup(
        createElement(AssignmentBadge, { state: item.state, status: item.status }),
      ).replace(/<[^>]+>/g, "");
    };
    expect(badge("abierta")).toBe("Pendiente de cotizar");
    expect(badge("ofertada")).toBe("Oferta enviada");
    expect(badge("declinada")).toBe("Declinada");
    expect(badge("retirada")).toBe("Retirada por el operador");
    expect(badge("ganada")).toBe("Seleccionada");
    expect(badge("cancelada")).toBe("Cancelada por el comprador");
  });
});

describe("lo que reciben las páginas", () => {
  const BASE = "http://localhost:3999";
  const signedIn = async (userId: number) =>
    (await startSession(db, new Request(BASE), userId)).split(";")[0]!;
  const get = (path: string, cookie: string) =>
    new Request(BASE + path, { headers: { Cookie: cookie } });
  const args = (request: Request) => ({ request, params: {}, context: {} });

  it("Mis Asignaciones: plazo y tiempo restante, «Enviar» o «Editar» solo si puede ofertar, nada de lo cerrado", async () => {
    const page = await import("~/routes/partner.assignments._index");
    const buyer = await makeUser("buyer", { companyName: "Cliente Visible" });
    const partner = await makeUser("partner");
    const now = Date.now();
    const make = async (
      title: string,
      status: RequestStatus,
      deadline: number,
      state: AssignmentState,
    ) => {
      const id = await makeRequest(buyer, status, title);
      await sql`UPDATE quote_requests SET quote_deadline = ${new Date(now + deadline).toISOString()}
        WHERE id = ${id}`.execute(db);
      await db
        .insertInto("partner_assignments")
        .values({ quote_request_id: id, partner_id: partner, state })
        .execute();
      return id;
    };
    const open = await make("Abierta", "assigned", 5 * HOUR + 30 * MIN, "invited");
    const late = await make("Vencida", "assigned", -HOUR, "invited");
    const declined = await make("Declinada", "assigned", 3 * DAY, "declined");
    const rejectedWin = await make("Ganada y rechazada", "rejected", -2 * DAY, "selected");
    const data = (await page.loader(
      args(get("/partner/assignments", await signedIn(partner))),
    )) as Awaited<ReturnType<typeof page.loader>>;
    const item = (id: number) => data.items.find((i) => i.id === id)!;
    expect(data.items.map((i) => i.id)).toEqual([open, declined, late, rejectedWin]);
    expect(item(open)).toMatchObject({
      canOffer: true,
      deadlineNote: { text: "Vence en 5 h", tone: "soon" },
      buyer_company: "Cliente Visible",
    });
    expect(item(late)).toMatchObject({
      canOffer: false,
      deadlineNote: { text: "Plazo vencido", tone: "overdue" },
    });
    expect(item(declined)).toMatchObject({
      sees: false,
      canOffer: false,
      deadlineNote: null,
      description: null,
      buyer_company: null,
      fileUrl: null,
    });
    expect(item(rejectedWin)).toMatchObject({ canOffer: false, deadlineNote: null });
    expect(
      renderToStaticMarkup(
        createElement(AssignmentBadge, { state: "selected", status: "rejected" }),
      ),
    ).toContain("Rechazada por el comprador");
    const deadline = renderToStaticMarkup(
      createElement(Deadline, { at: item(open).quote_deadline, note: item(open).deadlineNote }),
    );
    expect(deadline).toContain("UTC");
    expect(deadline).toContain("Vence en 5 h");
  });

  it("Mis Cotizaciones: «Editar» solo mientras la oferta se puede revisar", async () => {
    const page = await import("~/routes/partner.quotes");
    const buyer = await makeUser("buyer");
    const partner = await makeUser("partner");
    const now = Date.now();
    const offered = async (
      title: string,
      status: RequestStatus,
      deadline: number,
      state: AssignmentState,
    ) => {
      const id = await makeRequest(buyer, status, title);
      await sql`UPDATE quote_requests SET quote_deadline = ${new Date(now + deadline).toISOString()}
        WHERE id = ${id}`.execute(db);
      await db
        .insertInto("partner_assignments")
        .values({ quote_request_id: id, partner_id: partner, state })
        .execute();
      await db
        .insertInto("partner_quotes")
        .values({
          quote_request_id: id,
          partner_id: partner,
          quoted_amount_cents: 50_000,
          is_selected: state === "selected" ? 1 : 0,
          updated_at: new Date(now).toISOString(),
        })
        .execute();
      return id;
    };
    const open = await offered("En plazo", "assigned", 2 * DAY, "offered");
    const late = await offered("Fuera de plazo", "assigned", -MIN, "offered");
    const lost = await offered("Perdida", "quoted", 2 * DAY, "not_selected");
    const won = await offered("Ganada", "quoted", 2 * DAY, "selected");
    const data = (await page.loader(
      args(get("/partner/quotes", await signedIn(partner))),
    )) as Awaited<ReturnType<typeof page.loader>>;
    const editable = Object.fromEntries(data.items.map((q) => [q.request_id, q.editable]));
    expect(editable).toEqual({ [open]: true, [late]: false, [lost]: false, [won]: false });
    const lostItem = data.items.find((q) => q.request_id === lost)!;
    expect(
      renderToStaticMarkup(
        createElement(AssignmentBadge, { state: lostItem.state, status: lostItem.status }),
      ),
    ).toContain("No seleccionada");
  });

  it("Cotizaciones del administrador: lee «Plazo» y «Ordenar por» de la URL, y el CSV los respeta", async () => {
    const page = await import("~/routes/admin.quotes._index");
    const csv = await import("~/routes/admin.quotes[.csv]");
    const cookie = await signedIn(await makeUser("admin"));
    const buyer = await makeUser("buyer");
    const overdue = await makeRequest(buyer, "assigned", "Zarandeo vencido");
    await sql`UPDATE quote_requests SET quote_deadline = ${new Date(Date.now() - HOUR).toISOString()}
      WHERE id = ${overdue}`.execute(db);
    const fresh = await makeRequest(buyer, "assigned", "Zarandeo a tiempo");

    const data = (await page.loader(
      args(get("/admin/quotes?q=zarandeo&deadline=overdue&sort=deadline", cookie)),
    )) as Awaited<ReturnType<typeof page.loader>>;
    // `sort=deadline` is the desk's older link for «Plazo más próximo» (`orden=plazo`).
    expect(data).toMatchObject({ deadline: "overdue", sort: "plazo", q: "zarandeo" });
    expect(data.rows.map((r) => r.id)).toEqual([overdue]);
    expect(data.rows[0]!.deadlineNote).toEqual({ text: "Plazo vencido", tone: "overdue" });

    const ignored = (await page.loader(
      args(get("/admin/quotes?q=zarandeo&deadline=pronto&orden=deadline", cookie)),
    )) as Awaited<ReturnType<typeof page.loader>>;
    expect(ignored).toMatchObject({ deadline: null, sort: "recientes" });
    expect(ignored.rows.map((r) => r.id)).toEqual([fresh, overdue]);
    expect(ignored.rows[0]!.deadlineNote?.text).toMatch(/^Vence en \d+ días$/);

    const response = (await csv.loader(
      args(get("/admin/quotes.csv?q=zarandeo&deadline=overdue", cookie)),
    )) as Response;
    const [header, ...lines] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(header).toContain("Plazo para cotizar (UTC)");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Zarandeo vencido");
  });
});
