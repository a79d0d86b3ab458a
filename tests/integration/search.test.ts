import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { listUsersForAdmin } from "~/models/admin-user.server";
import { listAssignments } from "~/models/partner-assignment.server";
import { listPaymentsForAdmin } from "~/models/payment.server";
import { assignPartner } from "~/models/quote-lifecycle.server";
import { listAdminRequests, listBuyerRequests } from "~/models/quote-request.server";
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
    for (const q of ['"', "*", "OR", "AND NOT", "NEAR(", "a:b", "{title}", "^", "lote OR"]) {
      await expect(listAdminRequests(db, { q, status: null, page: first })).resolves.toBeTruthy();
      await expect(listUsersForAdmin(db, { q, role: null, page: first })).resolves.toBeTruthy();
      await expect(
        listPaymentsForAdmin(db, { q, status: null, page: first }),
      ).resolves.toBeTruthy();
    }
    expect(await adminTitles("OR")).toEqual([]);
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
});
