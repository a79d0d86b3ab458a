/**
 * The back office's other CSV downloads (/admin/payments.csv, /admin/users.csv,
 * /admin/contacts.csv), read through their loaders as a browser gets them: every row the list's
 * filters show (the list's own count says how many), in more than one batch, cells that
 * round-trip accents, commas, quotes and line breaks, formulas neutralised, and admins only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { PaymentMethod, PaymentStatus } from "../../db/schema";
import { csvRows, csvText } from "../csv";
import { makeRequest, makeUser } from "./factories";
import { exportAdminUsers } from "~/models/admin-user.server";
import { exportContactSubmissions } from "~/models/contact-admin.server";
import { EXPORT_BATCH_SIZE } from "~/models/keyset.server";
import { exportAdminPayments } from "~/models/payment.server";
import { SEARCH_COUNT_CAP } from "~/models/quote-request.server";
import { db, now } from "~/services/db.server";
import { startSession } from "~/services/session.server";
import { paths } from "~/utils/paths";

const BASE = "http://localhost:3999";
const BULK = EXPORT_BATCH_SIZE + 5;

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;

async function signedIn(userId: number) {
  const setCookie = await startSession(db, new Request(BASE), userId);
  return setCookie.split(";")[0]!;
}

/** What a loader answered, or the redirect it threw. */
async function load(loader: Loader, path: string, cookie?: string): Promise<unknown> {
  const request = new Request(BASE + path, { headers: cookie ? { Cookie: cookie } : {} });
  try {
    return await loader({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The file a CSV route sends: its name, raw text (after the BOM) and rows keyed by header. */
async function download(loader: Loader, path: string, cookie: string) {
  const response = (await load(loader, path, cookie)) as Response;
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  // Lists of people and payments stay out of shared caches.
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const filename = /^attachment; filename="([^"]+)"$/.exec(disposition)?.[1];
  const text = csvText(new Uint8Array(await response.arrayBuffer()));
  return { filename, text, ...csvRows(text) };
}

/** The count the list page shows for the same URL. */
async function listTotal(loader: Loader, path: string, cookie: string) {
  return ((await load(loader, path, cookie)) as { total: number }).total;
}

async function batchSizes(batches: AsyncIterable<unknown[]>) {
  const sizes: number[] = [];
  for await (const rows of batches) sizes.push(rows.length);
  return sizes;
}

/** Each CSV lists rows newest first, each once. */
function expectNewestFirst(ids: number[]) {
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  expect(new Set(ids).size).toBe(ids.length);
}

async function officialQuote(requestId: number, amountCents: number) {
  const { id } = await db
    .insertInto("official_quotes")
    .values({
      quote_request_id: requestId,
      final_amount_cents: amountCents,
      commission_percentage: 5,
      commission_amount_cents: Math.round(amountCents * 0.05),
      currency: "USD",
      valid_until: "2099-01-01",
      created_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function payment(
  requestId: number,
  {
    amountCents,
    status,
    method = null,
    reason = null,
  }: {
    amountCents: number;
    status: PaymentStatus;
    method?: PaymentMethod | null;
    reason?: string | null;
  },
) {
  const request = await db
    .selectFrom("quote_requests")
    .select("buyer_id")
    .where("id", "=", requestId)
    .executeTakeFirstOrThrow();
  const stamp = now();
  const { id } = await db
    .insertInto("payments")
    .values({
      quote_request_id: requestId,
      official_quote_id: await officialQuote(requestId, amountCents),
      buyer_id: request.buyer_id,
      amount_cents: amountCents,
      method,
      status,
      proof_key: method ? `comprobante-${requestId}.pdf` : null,
      proof_name: method ? "comprobante.pdf" : null,
      proof_type: method ? "application/pdf" : null,
      rejection_reason: reason,
      submitted_at: method ? "2026-11-20T09:15:00.000Z" : null,
      confirmed_at: status === "confirmed" ? "2026-11-21T16:40:00.000Z" : null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

describe("/admin/payments.csv", () => {
  it("exporta todo lo que la lista de pagos filtra, por lotes, celdas intactas y sin fórmulas", async () => {
    const csv = await import("~/routes/admin.payments[.csv]");
    const list = await import("~/routes/admin.payments");
    const admin = await signedIn(await makeUser("admin"));
    const buyer = await makeUser("buyer", { companyName: "Ferretería Ñandú, S.A." });
    const other = await makeUser("buyer", { companyName: "@Compras Norte" });

    // Many rejected proofs of one request: more rows than one batch reads.
    const bolts = await makeRequest(buyer, "approved", "Tornillos en lote");
    const boltsQuote = await officialQuote(bolts, 50_000);
    const stamp = now();
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK})
      INSERT INTO payments (quote_request_id, official_quote_id, buyer_id, amount_cents, method, status, rejection_reason, created_at, updated_at)
      SELECT ${bolts}, ${boltsQuote}, ${buyer}, 50000, 'check', 'rejected', 'Comprobante ilegible', ${stamp}, ${stamp} FROM n`.execute(
      db,
    );
    const valves = await makeRequest(buyer, "approved", 'Válvulas "DN50", acero inoxidable');
    const valvesPayment = await payment(valves, {
      amountCents: 123_456,
      status: "pending",
      method: "transfer",
    });
    const formula = await makeRequest(other, "paid", '=HIPERVINCULO("http://malo.test")');
    await payment(formula, { amountCents: 9_900, status: "confirmed", method: "cash" });
    const gloves = await makeRequest(other, "approved", "Guantes de nitrilo");
    await payment(gloves, {
      amountCents: 700,
      status: "rejected",
      method: "other",
      reason: "+ revisar el monto",
    });

    // The review queue's two parts, each in batches: the pending proof, then the reviewed ones.
    expect(await batchSizes(exportAdminPayments(db, { q: "", status: null }))).toEqual([
      1,
      EXPORT_BATCH_SIZE,
      BULK + 2 - EXPORT_BATCH_SIZE,
    ]);

    const all = await download(csv.loader, "/admin/payments.csv", admin);
    expect(all.filename).toMatch(/^pagos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.header).toEqual([
      "Pago",
      "Solicitud",
      "Título",
      "Comprador",
      "Empresa",
      "Correo",
      "Monto (USD)",
      "Comisión (USD)",
      "Método",
      "Estado",
      "Comprobante enviado (UTC)",
      "Confirmado (UTC)",
      "Motivo del rechazo",
      "Creado (UTC)",
    ]);
    expect(all.rows).toHaveLength(BULK + 3);
    // In the list's order (the review queue): the proof waiting for review first, then the
    // reviewed payments, the most recently sent first.
    const reviewed = await db
      .selectFrom("payments")
      .select("id")
      .where("status", "!=", "pending")
      .orderBy(sql`coalesce(submitted_at, created_at)`, "desc")
      .orderBy("id", "desc")
      .execute();
    expect(all.rows.map((r) => Number(r["Pago"]))).toEqual([
      valvesPayment,
      ...reviewed.map((p) => p.id),
    ]);

    // Each filter the list takes from its URL, and the list's own count for that URL (a search
    // is counted up to the cap: «Más de 200»).
    const filters: [string, number][] = [
      ["", BULK + 3],
      ["?status=pending", 1],
      ["?status=rejected", BULK + 1],
      ["?status=confirmed", 1],
      ["?status=anulado", BULK + 3],
      ["?q=valvulas", 1],
      ["?q=%C3%B1andu&status=rejected", BULK],
      ["?q=%C3%B1andu&status=confirmed", 0],
      ["?q=compras%20norte", 2],
      ["?q=***", 0],
    ];
    for (const [query, expected] of filters) {
      const file = await download(csv.loader, `/admin/payments.csv${query}`, admin);
      expect(file.rows, query).toHaveLength(expected);
      const counted = query.includes("q=") ? Math.min(expected, SEARCH_COUNT_CAP + 1) : expected;
      expect(await listTotal(list.loader, `/admin/payments${query}`, admin), query).toBe(counted);
    }
    const rejected = await download(csv.loader, "/admin/payments.csv?status=rejected", admin);
    expect(new Set(rejected.rows.map((r) => r["Estado"]))).toEqual(new Set(["Rechazado"]));

    const pending = await download(csv.loader, "/admin/payments.csv?status=pending", admin);
    expect(pending.rows[0]).toMatchObject({
      Pago: String(valvesPayment),
      Solicitud: String(valves),
      Título: 'Válvulas "DN50", acero inoxidable',
      Comprador: expect.stringMatching(/^Beatriz Prueba\d+$/),
      Empresa: "Ferretería Ñandú, S.A.",
      "Monto (USD)": "1234.56",
      "Comisión (USD)": "61.73",
      Método: "Transferencia bancaria",
      Estado: "Pendiente",
      "Comprobante enviado (UTC)": "2026-11-20 09:15",
      "Confirmado (UTC)": "",
      "Motivo del rechazo": "",
    });
    expect(pending.text).toContain(`,"Válvulas ""DN50"", acero inoxidable",Beatriz Prueba`);
    expect(pending.text).toContain(`,"Ferretería Ñandú, S.A.",`);

    const others = await download(csv.loader, "/admin/payments.csv?q=compras%20norte", admin);
    const byRequest = new Map(others.rows.map((r) => [Number(r["Solicitud"]), r]));
    expect(byRequest.get(formula)).toMatchObject({
      Título: `'=HIPERVINCULO("http://malo.test")`,
      Empresa: "'@Compras Norte",
      "Monto (USD)": "99.00",
      "Comisión (USD)": "4.95",
      Método: "Efectivo",
      Estado: "Confirmado",
      "Confirmado (UTC)": "2026-11-21 16:40",
    });
    expect(byRequest.get(gloves)).toMatchObject({
      "Monto (USD)": "7.00",
      Estado: "Rechazado",
      "Motivo del rechazo": "'+ revisar el monto",
    });
  });
});

describe("/admin/users.csv", () => {
  it("exporta los usuarios de la búsqueda y el rol de la lista, por lotes, sin fórmulas", async () => {
    const csv = await import("~/routes/admin.users[.csv]");
    const list = await import("~/routes/admin.users");
    const admin = await signedIn(await makeUser("admin"));
    const stamp = now();
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK})
      INSERT INTO users (email, password_hash, first_name, last_name, company_name, phone, role, email_verified_at, created_at, updated_at)
      SELECT 'jose' || i || '.p' || ${process.pid} || '@ejemplo.test', 'x', 'José', 'Núñez ' || i,
        'Aceros del Bajío, S.A. de C.V.', '33 1234 5678', 'buyer', ${stamp}, ${stamp}, ${stamp} FROM n`.execute(
      db,
    );
    const { id: partner } = await db
      .insertInto("users")
      .values({
        email: `pedro.p${process.pid}@ejemplo.test`,
        password_hash: "x",
        first_name: "Pedro",
        last_name: "-Ruiz",
        company_name: "@Proveedor Sur",
        phone: "+52 55 0000 0000",
        role: "partner",
        email_verified_at: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    expect(await batchSizes(exportAdminUsers(db, { q: "bajio", role: null }))).toEqual([
      EXPORT_BATCH_SIZE,
      BULK - EXPORT_BATCH_SIZE,
    ]);

    const all = await download(csv.loader, "/admin/users.csv", admin);
    expect(all.filename).toMatch(/^usuarios-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.header).toEqual([
      "Usuario",
      "Nombre",
      "Apellidos",
      "Correo",
      "Empresa",
      "Teléfono",
      "Rol",
      "Verificación",
      "Cuenta",
      "Alta (UTC)",
    ]);
    expect(all.rows.length).toBeGreaterThan(BULK);
    expectNewestFirst(all.rows.map((r) => Number(r["Usuario"])));

    const everyone = await listTotal(list.loader, "/admin/users", admin);
    const filters: [string, number][] = [
      ["", everyone],
      ["?role=jefe", everyone],
      ["?q=bajio", BULK],
      ["?q=jos%C3%A9%20n%C3%BA%C3%B1ez&role=buyer", BULK],
      ["?q=bajio&role=partner", 0],
      ["?q=proveedor%20sur&role=partner", 1],
      ["?role=partner", 1],
    ];
    for (const [query, expected] of filters) {
      const file = await download(csv.loader, `/admin/users.csv${query}`, admin);
      expect(file.rows, query).toHaveLength(expected);
      expect(await listTotal(list.loader, `/admin/users${query}`, admin), query).toBe(expected);
    }

    const partners = await download(csv.loader, "/admin/users.csv?role=partner", admin);
    expect(partners.rows).toEqual([
      {
        Usuario: String(partner),
        Nombre: "Pedro",
        Apellidos: "'-Ruiz",
        Correo: `pedro.p${process.pid}@ejemplo.test`,
        Empresa: "'@Proveedor Sur",
        Teléfono: "'+52 55 0000 0000",
        Rol: "Socio",
        Verificación: "Sin verificar",
        Cuenta: "Activa",
        "Alta (UTC)": stamp.slice(0, 16).replace("T", " "),
      },
    ]);
    const buyers = await download(csv.loader, "/admin/users.csv?q=bajio", admin);
    expect(buyers.rows.at(-1)).toMatchObject({
      Nombre: "José",
      Apellidos: "Núñez 1",
      Empresa: "Aceros del Bajío, S.A. de C.V.",
      Teléfono: "33 1234 5678",
      Rol: "Comprador",
      Verificación: "Verificado",
    });
    expect(buyers.text).toContain(`,"Aceros del Bajío, S.A. de C.V.",`);
    expect(buyers.text).not.toContain("password");
  });
});

describe("/admin/contacts.csv", () => {
  it("exporta los mensajes de la búsqueda de la lista, por lotes, con saltos de línea y sin fórmulas", async () => {
    const csv = await import("~/routes/admin.contacts[.csv]");
    const list = await import("~/routes/admin.contacts");
    const admin = await signedIn(await makeUser("admin"));
    const message = 'Necesito cotizar 20 válvulas, "urgente".\nGracias.';
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK})
      INSERT INTO contact_submissions (name, email, phone, company, message)
      SELECT 'Lucía Peña ' || i, 'lucia' || i || '@ejemplo.test', NULL, 'Minera Ñuble, Ltda.', ${message}
      FROM n`.execute(db);
    const { id: hostile } = await db
      .insertInto("contact_submissions")
      .values({
        name: "=cmd|' /C calc'!A0",
        email: "malo@ejemplo.test",
        phone: "+34 600 000 000",
        company: "@Hackers",
        message: "-2+3",
        created_at: "2026-11-24T08:05:00.000Z",
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    expect(await batchSizes(exportContactSubmissions(db, { q: "peña" }))).toEqual([
      EXPORT_BATCH_SIZE,
      BULK - EXPORT_BATCH_SIZE,
    ]);

    const all = await download(csv.loader, "/admin/contacts.csv", admin);
    expect(all.filename).toMatch(/^contactos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.header).toEqual([
      "N.º",
      "Recibido (UTC)",
      "Nombre",
      "Correo",
      "Teléfono",
      "Empresa",
      "Mensaje",
    ]);
    expect(all.rows).toHaveLength(BULK + 1);
    expectNewestFirst(all.rows.map((r) => Number(r["N.º"])));

    const filters: [string, number][] = [
      ["", BULK + 1],
      ["?q=pe%C3%B1a", BULK],
      ["?q=URGENTE", BULK],
      ["?q=hackers", 1],
      ["?q=100%25", 0],
      ["?page=3", BULK + 1],
    ];
    for (const [query, expected] of filters) {
      const file = await download(csv.loader, `/admin/contacts.csv${query}`, admin);
      expect(file.rows, query).toHaveLength(expected);
      expect(await listTotal(list.loader, `/admin/contacts${query}`, admin), query).toBe(expected);
    }

    const found = await download(csv.loader, "/admin/contacts.csv?q=hackers", admin);
    expect(found.rows).toEqual([
      {
        "N.º": String(hostile),
        "Recibido (UTC)": "2026-11-24 08:05",
        Nombre: "'=cmd|' /C calc'!A0",
        Correo: "malo@ejemplo.test",
        Teléfono: "'+34 600 000 000",
        Empresa: "'@Hackers",
        Mensaje: "'-2+3",
      },
    ]);
    const lucia = await download(csv.loader, "/admin/contacts.csv?q=pe%C3%B1a", admin);
    expect(lucia.rows.at(-1)).toMatchObject({
      Nombre: "Lucía Peña 1",
      Teléfono: "",
      Empresa: "Minera Ñuble, Ltda.",
      Mensaje: message,
    });
    expect(lucia.text).toContain(
      `,"Minera Ñuble, Ltda.","Necesito cotizar 20 válvulas, ""urgente"".\nGracias."\r\n`,
    );
  });
});

describe("las descargas son solo para administradores", () => {
  it("un comprador, un socio o alguien sin sesión no reciben el archivo", async () => {
    const routes = {
      "/admin/payments.csv?status=pending": await import("~/routes/admin.payments[.csv]"),
      "/admin/users.csv?role=admin": await import("~/routes/admin.users[.csv]"),
      "/admin/contacts.csv?q=a": await import("~/routes/admin.contacts[.csv]"),
    };
    const buyer = await signedIn(await makeUser("buyer"));
    const partner = await signedIn(await makeUser("partner"));
    for (const [path, route] of Object.entries(routes)) {
      for (const [cookie, home] of [
        [buyer, "/buyer"],
        [partner, "/partner"],
        [undefined, paths.signIn(path)],
      ] as const) {
        const answer = (await load(route.loader, path, cookie)) as Response;
        expect(answer.status, `${path} ${home}`).toBe(302);
        expect(answer.headers.get("Location")).toBe(home);
        expect(answer.headers.get("Content-Type") ?? "").not.toMatch(/csv/);
      }
    }
  });
});
