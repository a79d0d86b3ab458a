import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { listUsersForAdmin } from "~/models/admin-user.server";
import { listAssignments } from "~/models/partner-assignment.server";
import { listPaymentsForAdmin } from "~/models/payment.server";
import {
  approvePartnerQuote,
  assignPartner,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import {
  listAdminRequests,
  listBuyerRequests,
  SEARCH_COUNT_CAP,
} from "~/models/quote-request.server";
import { db } from "~/services/db.server";
import { decodeCursor, type PageRequest } from "~/utils/keyset";
import { matchExpression } from "~/utils/search";
import { makeRequest, makeUser } from "./factories";

/** Full-text search (FTS5, kept by triggers) and keyset pages, through the list models. */

const first: PageRequest = { kind: "numbered", page: 1 };
const after = (cursor: string | null): PageRequest => ({
  kind: "after",
  cursor: decodeCursor(cursor)!,
});
const before = (cursor: string | null): PageRequest => ({
  kind: "before",
  cursor: decodeCursor(cursor)!,
});

let admin = 0;
let acme = 0;
let otra = 0;
let partner = 0;
const ids: Record<string, number> = {};

async function request(buyer: number, title: string, description: string) {
  const id = await makeRequest(buyer, "pending", title);
  await db.updateTable("quote_requests").set({ description }).where("id", "=", id).execute();
  return id;
}

beforeAll(async () => {
  admin = await makeUser("admin");
  acme = await makeUser("buyer", { companyName: "Acmé Logística S.A." });
  otra = await makeUser("buyer", { companyName: "Otra Empresa" });
  partner = await makeUser("partner");
  ids.valvulas = await request(acme, "Válvulas de compuerta", "Acero inoxidable, lote 12");
  ids.tuberia = await request(otra, "Tubería galvanizada", "Entrega en Peñalolén");
  ids.uniformes = await request(otra, "Uniformes ignífugos", "Tallas surtidas, lote 120");
  ids.oferta = await request(acme, "Oferta 100% garantizada", "Lote_especial de cascos");
  await assignPartner(db, { requestId: ids.tuberia, partnerId: partner, adminId: admin });
  await assignPartner(db, { requestId: ids.valvulas, partnerId: partner, adminId: admin });
});

const adminTitles = async (q: string) =>
  (await listAdminRequests(db, { q, status: null, page: first })).rows.map((r) => r.title).sort();

describe("búsqueda de texto completo", () => {
  it("ignora acentos y mayúsculas, y encuentra palabras a medias", async () => {
    expect(await adminTitles("valvulas")).toEqual(["Válvulas de compuerta"]);
    expect(await adminTitles("VÁLV")).toEqual(["Válvulas de compuerta"]);
    expect(await adminTitles("tuberia galv")).toEqual(["Tubería galvanizada"]);
    expect(await adminTitles("penalolen")).toEqual(["Tubería galvanizada"]);
    expect(await adminTitles("ignif")).toEqual(["Uniformes ignífugos"]);
  });

  it("busca por el nombre de la empresa, el nombre y el correo del comprador", async () => {
    expect(await adminTitles("acme logistica")).toEqual([
      "Oferta 100% garantizada",
      "Válvulas de compuerta",
    ]);
    const email = (
      await db.selectFrom("users").select("email").where("id", "=", otra).executeTakeFirstOrThrow()
    ).email;
    expect(await adminTitles(email)).toEqual(["Tubería galvanizada", "Uniformes ignífugos"]);
    expect(
      (await listUsersForAdmin(db, { q: "acme", role: null, page: first })).users.map((u) => u.id),
    ).toEqual([acme]);
    expect(
      (await listUsersForAdmin(db, { q: "logistica s.a.", role: null, page: first })).users.map(
        (u) => u.id,
      ),
    ).toEqual([acme]);
  });

  it("acepta cualquier texto sin fallar: comillas, asteriscos, operadores", async () => {
    expect(await adminTitles("lote 12")).toEqual([
      "Uniformes ignífugos", // "lote 120": partial words match
      "Válvulas de compuerta",
    ]);
    // "\u0000" too: a NUL typed into the URL ended FTS5's query text (an SQL error, a 500).
    const texts = [
      '"',
      "*",
      "OR",
      "AND NOT",
      "NEAR(",
      "a:b",
      "{title}",
      "^",
      "lote OR",
      "a\u0000b",
    ];
    for (const q of texts) {
      await expect(listAdminRequests(db, { q, status: null, page: first })).resolves.toBeTruthy();
      await expect(listUsersForAdmin(db, { q, role: null, page: first })).resolves.toBeTruthy();
      await expect(
        listPaymentsForAdmin(db, { q, status: null, page: first }),
      ).resolves.toBeTruthy();
    }
    expect(await adminTitles("OR")).toEqual([]);
    expect(await adminTitles("válvulas\u0000lote")).toEqual(["Válvulas de compuerta"]);
    expect(matchExpression('di"jo', ["title"])).toBe('{title} : ("di""jo"*)');
    expect(matchExpression(' * " ', ["title"])).toBeNull();
  });

  it("un comprador solo encuentra lo suyo; un socio, lo que tiene asignado", async () => {
    const mine = await listBuyerRequests(db, {
      buyerId: acme,
      q: "lote",
      status: null,
      page: first,
    });
    expect(mine.rows.map((r) => r.title).sort()).toEqual([
      "Oferta 100% garantizada",
      "Válvulas de compuerta",
    ]);
    expect(mine.total).toBe(2);
    const assigned = await listAssignments(db, { partnerId: partner, search: "acero" });
    expect(assigned.items.map((a) => a.title)).toEqual(["Válvulas de compuerta"]);
    expect((await listAssignments(db, { partnerId: partner, search: "ignifugos" })).items).toEqual(
      [],
    );
    expect(
      (await listAssignments(db, { partnerId: partner, search: "otra empresa" })).items.map(
        (a) => a.title,
      ),
    ).toEqual(["Tubería galvanizada"]);
  });

  it("el índice sigue los cambios de título y de empresa", async () => {
    await db
      .updateTable("quote_requests")
      .set({ title: "Tornillería métrica" })
      .where("id", "=", ids.oferta!)
      .execute();
    expect(await adminTitles("tornilleria")).toEqual(["Tornillería métrica"]);
    expect(await adminTitles("garantizada")).toEqual([]);
    await db
      .updateTable("users")
      .set({ company_name: "Nueva Razón Social" })
      .where("id", "=", otra)
      .execute();
    expect(await adminTitles("razon social")).toEqual([
      "Tubería galvanizada",
      "Uniformes ignífugos",
    ]);
    expect(await adminTitles("otra empresa")).toEqual([]);
  });
});

describe("páginas por cursor (enlaces sin JavaScript)", () => {
  it("avanza y retrocede por la lista del administrador, con y sin búsqueda", async () => {
    const buyer = await makeUser("buyer", { companyName: "Paginadora" });
    for (let i = 0; i < 45; i++) await makeRequest(buyer, "pending", `Pieza número ${i}`);
    for (const q of ["", "pieza"]) {
      const all = (
        await sql<{
          id: number;
        }>`SELECT id FROM quote_requests ORDER BY created_at DESC, id DESC`.execute(db)
      ).rows.map((r) => r.id);
      const p1 = await listAdminRequests(db, { q, status: null, page: first });
      const p2 = await listAdminRequests(db, { q, status: null, page: after(p1.pageInfo.next) });
      const p3 = await listAdminRequests(db, { q, status: null, page: after(p2.pageInfo.next) });
      expect(p1.pageInfo).toMatchObject({ page: 1, prev: null });
      expect(p2.pageInfo.page).toBe(2);
      expect(p3.pageInfo.page).toBe(3);
      const seen = [...p1.rows, ...p2.rows, ...p3.rows].map((r) => r.id);
      expect(new Set(seen).size).toBe(seen.length);
      if (!q) expect(seen).toEqual(all.slice(0, seen.length));
      else expect(seen).toHaveLength(45);
      expect(p3.pageInfo.next).toBeNull();
      const back2 = await listAdminRequests(db, {
        q,
        status: null,
        page: before(p3.pageInfo.prev),
      });
      const back1 = await listAdminRequests(db, {
        q,
        status: null,
        page: before(back2.pageInfo.prev),
      });
      expect(back2.rows.map((r) => r.id)).toEqual(p2.rows.map((r) => r.id));
      expect(back2.pageInfo.page).toBe(2);
      expect(back1.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id));
      expect(back1.pageInfo).toMatchObject({ page: 1, prev: null });
      const numbered = await listAdminRequests(db, {
        q,
        status: null,
        page: { kind: "numbered", page: 2 },
      });
      expect(numbered.rows.map((r) => r.id)).toEqual(p2.rows.map((r) => r.id));
    }
  });

  it("avanza y retrocede por las solicitudes del comprador", async () => {
    const buyer = await makeUser("buyer");
    for (let i = 0; i < 25; i++) await makeRequest(buyer, "pending", `Caja ${i}`);
    const p1 = await listBuyerRequests(db, { buyerId: buyer, q: "", status: null, page: first });
    const p2 = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "",
      status: null,
      page: after(p1.pageInfo.next),
    });
    expect(p1.rows).toHaveLength(20);
    expect(p2.rows).toHaveLength(5);
    expect(p1.total).toBe(25);
    expect(p2.pageInfo.next).toBeNull();
    const back = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "",
      status: null,
      page: before(p2.pageInfo.prev),
    });
    expect(back.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id));
  });

  it("una búsqueda con filtro sigue los cambios de estado, de cotización y de selección", async () => {
    const buyer = await makeUser("buyer", { companyName: "Filtros SpA" });
    const socio = await makeUser("partner");
    const otro = await makeUser("partner");
    const a = await request(buyer, "Compresores de tornillo", "Para planta norte");
    const b = await request(buyer, "Compresores de pistón", "Para planta sur");
    for (const requestId of [a, b]) {
      await assignPartner(db, { requestId, partnerId: socio, adminId: admin });
      await assignPartner(db, { requestId, partnerId: otro, adminId: admin });
    }
    const partnerTitles = async (filter: "all" | "pending" | "quoted" | "won") => {
      const searched = await listAssignments(db, {
        partnerId: socio,
        search: "compresores",
        filter,
      });
      // The filter alone (no search) must agree with the index's tokens.
      const plain = await listAssignments(db, { partnerId: socio, filter });
      expect(searched.items.map((i) => i.id).sort()).toEqual(
        plain.items
          .filter((i) => [a, b].includes(i.id))
          .map((i) => i.id)
          .sort(),
      );
      expect(searched.matched).toBe(searched.items.length);
      return searched.items.map((i) => i.title).sort();
    };
    const adminByStatus = async (status: "assigned" | "quoted" | "approved" | "paid") =>
      (await listAdminRequests(db, { q: "compresores", status, page: first })).rows
        .map((r) => r.title)
        .sort();

    expect(await partnerTitles("pending")).toEqual([
      "Compresores de pistón",
      "Compresores de tornillo",
    ]);
    expect(await adminByStatus("assigned")).toEqual([
      "Compresores de pistón",
      "Compresores de tornillo",
    ]);

    const quote = (requestId: number, partnerId: number) =>
      submitPartnerQuote(db, {
        requestId,
        partnerId,
        amountCents: 500_000,
        notes: null,
        file: null,
      });
    expect((await quote(a, socio)).ok).toBe(true);
    expect((await quote(b, otro)).ok).toBe(true);
    expect(await partnerTitles("quoted")).toEqual(["Compresores de tornillo"]);
    expect(await partnerTitles("pending")).toEqual(["Compresores de pistón"]);
    expect(await partnerTitles("won")).toEqual([]);

    const ownQuote = await db
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", a)
      .where("partner_id", "=", socio)
      .executeTakeFirstOrThrow();
    const approved = await approvePartnerQuote(db, {
      requestId: a,
      partnerQuoteId: ownQuote.id,
      adminId: admin,
    });
    expect(approved.ok).toBe(true);
    expect(await partnerTitles("won")).toEqual(["Compresores de tornillo"]);
    expect(await partnerTitles("all")).toEqual([
      "Compresores de pistón",
      "Compresores de tornillo",
    ]);
    const aStatus = (
      await db
        .selectFrom("quote_requests")
        .select("status")
        .where("id", "=", a)
        .executeTakeFirstOrThrow()
    ).status as "quoted";
    expect(await adminByStatus(aStatus)).toEqual(["Compresores de tornillo"]);
    expect(await adminByStatus("assigned")).toEqual(["Compresores de pistón"]);

    const mine = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "compresores",
      status: "assigned",
      page: first,
    });
    expect(mine.rows.map((r) => r.title)).toEqual(["Compresores de pistón"]);
    expect(mine.total).toBe(1);
  });

  it("una palabra larga encuentra lo mismo que antes (se busca por sus primeras 8 letras)", async () => {
    const buyer = await makeUser("buyer");
    await request(buyer, "Electricidad industrial", "Tableros");
    expect(await adminTitles("electricidad")).toEqual(["Electricidad industrial"]);
    expect(await adminTitles("ELÉCTRICIDAD industrial")).toEqual(["Electricidad industrial"]);
    expect(matchExpression("hidráulicos", ["title"])).toBe('{title} : ("hidráuli"*)');
  });

  it("cuenta hasta el tope y dice «más de» después", async () => {
    const buyer = await makeUser("buyer");
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SEARCH_COUNT_CAP + 5})
      INSERT INTO quote_requests (buyer_id, title, file_name, file_type, file_key, file_size, status, created_at, updated_at)
      SELECT ${buyer}, 'Resmas de papel ' || i, 'r.pdf', 'application/pdf', 'k' || i, 1, 'pending', datetime('now'), datetime('now') FROM n`.execute(
      db,
    );
    const list = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "resmas",
      status: null,
      page: first,
    });
    expect(list.total).toBe(SEARCH_COUNT_CAP + 1);
    expect(list.totalCapped).toBe(true);
    expect(list.rows).toHaveLength(20);
    const next = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "resmas",
      status: null,
      page: after(list.pageInfo.next),
    });
    expect(next.rows).toHaveLength(20);
    expect(next.rows[0]!.id).toBeLessThan(list.rows[19]!.id);
  });

  it("el filtro «Vencido» también cuenta hasta el tope: todas las abiertas pueden estar vencidas", async () => {
    const buyer = await makeUser("buyer");
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SEARCH_COUNT_CAP + 5})
      INSERT INTO quote_requests (buyer_id, title, file_name, file_type, file_key, file_size, status, quote_deadline, created_at, updated_at)
      SELECT ${buyer}, 'Tóner vencido ' || i, 't.pdf', 'application/pdf', 'v' || i, 1, 'pending',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' minutes'), datetime('now'), datetime('now') FROM n`.execute(
      db,
    );
    for (const sort of ["newest", "deadline", "monto"] as const) {
      for (const status of [null, "pending"] as const) {
        const filters = { q: "", status, deadline: "overdue", sort } as const;
        const list = await listAdminRequests(db, { ...filters, page: first });
        expect(list.total, `${sort} ${status}`).toBe(SEARCH_COUNT_CAP + 1);
        expect(list.totalCapped, `${sort} ${status}`).toBe(true);
        expect(list.rows, `${sort} ${status}`).toHaveLength(20);
        const next = await listAdminRequests(db, { ...filters, page: after(list.pageInfo.next) });
        expect(next.rows, `${sort} ${status}`).toHaveLength(20);
        expect(next.rows.map((r) => r.id)).not.toContain(list.rows[0]!.id);
      }
    }
  });
});

describe("búsqueda y asignaciones de la ronda de cotización", () => {
  it("«pendientes» con búsqueda deja fuera lo declinado, lo retirado y lo cancelado, como sin búsqueda", async () => {
    const buyer = await makeUser("buyer", { companyName: "Bombeo Austral" });
    const socio = await makeUser("partner");
    const ids: Record<"sigue" | "declinada" | "retirada" | "cancelada", number> = {
      sigue: await request(buyer, "Bombas sumergibles", "Pozo profundo"),
      declinada: await request(buyer, "Bombas dosificadoras", "Planta de cloro"),
      retirada: await request(buyer, "Bombas centrífugas", "Riego"),
      cancelada: await request(buyer, "Bombas de vacío", "Laboratorio"),
    };
    for (const requestId of Object.values(ids))
      await assignPartner(db, { requestId, partnerId: socio, adminId: admin });
    const titles = async (filter: "all" | "pending", search = "bombas") => {
      const list = await listAssignments(db, { partnerId: socio, search, filter });
      expect(list.matched).toBe(list.items.length);
      return list.items.map((i) => i.title).sort();
    };
    expect(await titles("pending")).toHaveLength(4);

    await sql`UPDATE partner_assignments SET state = 'declined', decline_reason = 'Sin stock'
      WHERE quote_request_id = ${ids.declinada} AND partner_id = ${socio}`.execute(db);
    await sql`UPDATE partner_assignments SET state = 'withdrawn'
      WHERE quote_request_id = ${ids.retirada} AND partner_id = ${socio}`.execute(db);
    await sql`UPDATE quote_requests SET status = 'cancelled' WHERE id = ${ids.cancelada}`.execute(
      db,
    );

    expect(await titles("pending")).toEqual(["Bombas sumergibles"]);
    // Without a search the filter says the same, and so does the counter the page shows.
    const plain = await listAssignments(db, { partnerId: socio, filter: "pending" });
    expect(plain.items.map((i) => i.title)).toEqual(["Bombas sumergibles"]);
    expect(plain.matched).toBe(1);
    // "Todas" still lists every assignment, closed ones included.
    expect(await titles("all")).toEqual([
      "Bombas centrífugas",
      "Bombas de vacío",
      "Bombas dosificadoras",
      "Bombas sumergibles",
    ]);
    // The buyer's company searches the same way.
    expect(await titles("pending", "austral")).toEqual(["Bombas sumergibles"]);

    // A declined assignment invited again is pending again, in the index too.
    await sql`UPDATE partner_assignments SET state = 'invited'
      WHERE quote_request_id = ${ids.declinada} AND partner_id = ${socio}`.execute(db);
    expect(await titles("pending")).toEqual(["Bombas dosificadoras", "Bombas sumergibles"]);
  });

  it("una solicitud cancelada se encuentra con el filtro «Cancelado» y ya no con su estado anterior", async () => {
    const buyer = await makeUser("buyer");
    const id = await request(buyer, "Compresor cancelado", "Ya no se necesita");
    const byStatus = async (status: "pending" | "cancelled") =>
      (await listAdminRequests(db, { q: "compresor cancelado", status, page: first })).rows.map(
        (r) => r.id,
      );
    expect(await byStatus("pending")).toEqual([id]);
    await sql`UPDATE quote_requests SET status = 'cancelled' WHERE id = ${id}`.execute(db);
    expect(await byStatus("cancelled")).toEqual([id]);
    expect(await byStatus("pending")).toEqual([]);
    const mine = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "",
      status: "cancelled",
      page: first,
    });
    expect(mine.rows.map((r) => r.id)).toEqual([id]);
    expect(mine.total).toBe(1);
  });
});
