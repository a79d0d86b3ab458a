/**
 * The lists' date ranges and sorts (issue 14): for the admin quotes, payments and users lists and
 * the buyer's quotes and payments, a range of days and each sort return exactly the rows they
 * should, in order, across keyset pages read forwards and back (no row skipped or repeated); the
 * pages' loaders explain a bad date next to its field and still list; the CSV exports hold the
 * filtered rows only, in the list's order.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { PaymentStatus } from "../../db/schema";
import { csvRows, csvText } from "../csv";
import { makeRequest, makeUser } from "./factories";
import type { DayRange } from "~/domain/list-filters";
import { RANGE_FORMAT_MESSAGE, RANGE_ORDER_MESSAGE } from "~/domain/list-filters";
import { listUsersForAdmin } from "~/models/admin-user.server";
import { listBuyerPayments, listPaymentsForAdmin } from "~/models/payment.server";
import {
  listAdminRequests,
  listBuyerRequests,
  RANGE_SORT_CAP,
} from "~/models/quote-request.server";
import { db } from "~/services/db.server";
import { startSession } from "~/services/session.server";
import type { PageRequest } from "~/utils/keyset";
import { byDesc, expectPages, first, inQueueOrder, reversed, sentAt, walk } from "./pages";

const BASE = "http://localhost:3999";
const MARCH: DayRange = { from: "2031-03-01", to: "2031-03-10" };

interface RequestRow {
  id: number;
  buyer: number;
  created: string;
  amount: number | null;
  deadline: string;
}
const requests: RequestRow[] = [];
interface PaymentRow {
  id: number;
  buyer: number;
  created: string;
  submitted: string | null;
  amount: number;
  status: PaymentStatus;
}
const payments: PaymentRow[] = [];
let buyer = 0;
let other = 0;
let adminCookie = "";
let buyerCookie = "";

const inRange = (at: string, range: DayRange) =>
  at >= `${range.from}T00:00:00.000Z` && at < `${nextDay(range.to!)}T00:00:00.000Z`;
const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

async function addRequest(owner: number, created: string, amount: number | null, deadline: string) {
  const id = await makeRequest(owner, "assigned", `Pedido ${requests.length}`);
  await sql`UPDATE quote_requests SET created_at = ${created}, total_amount_cents = ${amount},
    quote_deadline = ${deadline} WHERE id = ${id}`.execute(db);
  requests.push({ id, buyer: owner, created, amount, deadline });
  return id;
}

async function addPayment(
  requestId: number,
  owner: number,
  p: { created: string; submitted: string | null; amount: number; status: PaymentStatus },
) {
  const { id: quoteId } = await db
    .insertInto("official_quotes")
    .values({
      quote_request_id: requestId,
      final_amount_cents: p.amount,
      commission_percentage: 5,
      commission_amount_cents: Math.round(p.amount * 0.05),
      currency: "USD",
      valid_until: "2099-01-01",
      created_at: p.created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto("payments")
    .values({
      quote_request_id: requestId,
      official_quote_id: quoteId,
      buyer_id: owner,
      amount_cents: p.amount,
      method: p.submitted ? "transfer" : null,
      status: p.status,
      proof_key: p.submitted ? `comprobante-${requestId}.pdf` : null,
      proof_name: p.submitted ? "comprobante.pdf" : null,
      proof_type: p.submitted ? "application/pdf" : null,
      submitted_at: p.submitted,
      confirmed_at: p.status === "confirmed" ? p.submitted : null,
      created_at: p.created,
      updated_at: p.created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  payments.push({ id, buyer: owner, ...p });
}

const at = (day: number, minute: number) =>
  new Date(Date.UTC(2031, 2, day, 0, minute)).toISOString();

beforeAll(async () => {
  adminCookie = (await startSession(db, new Request(BASE), await makeUser("admin"))).split(";")[0]!;
  buyer = await makeUser("buyer", { companyName: "Fechas y Órdenes" });
  other = await makeUser("buyer", { companyName: "Otra empresa" });
  buyerCookie = (await startSession(db, new Request(BASE), buyer)).split(";")[0]!;

  // The buyer's requests: three a day from Feb 27 to Mar 12, the first and last minute of each
  // day among them, amounts with ties and some without amount, two created at the same instant.
  for (let day = -1; day <= 12; day++) {
    for (const minute of [0, 600, 1439]) {
      const n = requests.length;
      await addRequest(
        buyer,
        at(day, minute),
        n % 5 === 0 ? null : (n % 4) * 10_000,
        at(20 + (n % 3), 0),
      );
    }
  }
  await addRequest(buyer, at(5, 600), 25_000, at(20, 0));
  // Another buyer's requests in the same days: the desk sees them, the buyer does not.
  const theirs: number[] = [];
  for (let day = 1; day <= 10; day += 3)
    theirs.push(await addRequest(other, at(day, 300), 5_000, at(21, 0)));

  // Payments: the date shown is the proof's, else the payment's own creation.
  const own = requests.filter((r) => r.buyer === buyer);
  for (const [i, r] of own.slice(0, 30).entries()) {
    const created = at(i % 15, 100 + i);
    const submitted = i % 3 === 0 ? null : at((i % 15) + (i % 2 ? 0 : 3), 200 + i);
    const status: PaymentStatus = !submitted
      ? "pending"
      : i % 4 === 0
        ? "rejected"
        : i % 4 === 1
          ? "pending"
          : "confirmed";
    await addPayment(r.id, buyer, { created, submitted, amount: 1_000 * (1 + (i % 7)), status });
  }
  // More payments in the days filtered below, so every list of them spans several pages.
  for (let i = 0; i < 60; i++) {
    const owner = i % 2 ? buyer : other;
    const id = await addRequest(owner, at(3 + (i % 7), 700 + i), 1_000 * (i % 4), at(22, 0));
    const submitted = i % 5 === 0 ? null : at(3 + (i % 7), 800 + i);
    const status: PaymentStatus = !submitted
      ? "pending"
      : (["pending", "confirmed", "rejected"] as const)[i % 3]!;
    await addPayment(id, owner, {
      created: at(2 + (i % 7), 900 + i),
      submitted,
      amount: 2_000 * (1 + (i % 3)),
      status,
    });
  }
  for (const [i, id] of theirs.entries())
    await addPayment(id, other, {
      created: at(2 + i, 50),
      submitted: at(3 + i, 50),
      amount: 77_700,
      status: "confirmed",
    });
});

describe("solicitudes: rango de fechas de creación y orden", () => {
  const ownIn = (range: DayRange) =>
    requests.filter((r) => r.buyer === buyer && inRange(r.created, range));
  const allIn = (range: DayRange) => requests.filter((r) => inRange(r.created, range));
  const newest = byDesc<RequestRow>(
    (r) => r.created,
    (r) => r.id,
  );
  const amountFirst = byDesc<RequestRow>(
    (r) => r.amount ?? -1,
    (r) => r.id,
  );
  const ids = (rows: RequestRow[]) => rows.map((r) => r.id);

  it("el comprador: cada orden, con y sin rango, sin saltar ni repetir filas entre páginas", async () => {
    const read =
      (sort: "recientes" | "antiguos" | "monto", range?: DayRange) => (page: PageRequest) =>
        listBuyerRequests(db, { buyerId: buyer, q: "", status: null, page, sort, range });
    const mine = requests.filter((r) => r.buyer === buyer);
    // Inclusive days: the first minute of Mar 1 and the last of Mar 10 count; Feb 28 23:59 and
    // Mar 11 00:00 do not.
    expect(ownIn(MARCH).length).toBe(31 + 30);
    expect(ownIn(MARCH).map((r) => r.created)).toContain("2031-03-01T00:00:00.000Z");
    expect(ownIn(MARCH).map((r) => r.created)).toContain("2031-03-10T23:59:00.000Z");
    expect(
      await expectPages(read("recientes", MARCH), ids(ownIn(MARCH).sort(newest))),
    ).toBeGreaterThan(1);
    await expectPages(read("antiguos", MARCH), ids(ownIn(MARCH).sort(reversed(newest))));
    await expectPages(read("monto", MARCH), ids(ownIn(MARCH).sort(amountFirst)));
    await expectPages(read("monto"), ids([...mine].sort(amountFirst)));
    await expectPages(read("antiguos"), ids([...mine].sort(reversed(newest))));
    // One day, open ends.
    await expectPages(
      read("recientes", { from: "2031-03-05", to: "2031-03-05" }),
      ids(ownIn({ from: "2031-03-05", to: "2031-03-05" }).sort(newest)),
    );
    const fromTenth = (await read("recientes", { from: "2031-03-10", to: null })(first)).rows;
    expect(fromTenth.map((r) => r.id)).toEqual(
      ids(mine.filter((r) => r.created >= "2031-03-10").sort(newest)),
    );
    const total = await listBuyerRequests(db, {
      buyerId: buyer,
      q: "",
      status: null,
      page: first,
      range: MARCH,
    });
    expect(total).toMatchObject({ total: 61, totalCapped: false });
  });

  it("la mesa de control: cada orden con rango, también cuando el rango pasa de RANGE_SORT_CAP solicitudes", async () => {
    const read =
      (sort: "recientes" | "antiguos" | "monto" | "plazo", range: DayRange) =>
      (page: PageRequest) =>
        listAdminRequests(db, { q: "", status: null, page, sort, range });
    const soonest = reversed(
      byDesc<RequestRow>(
        (r) => r.deadline,
        (r) => r.id,
      ),
    );
    await expectPages(read("recientes", MARCH), ids(allIn(MARCH).sort(newest)));
    await expectPages(read("antiguos", MARCH), ids(allIn(MARCH).sort(reversed(newest))));
    await expectPages(read("monto", MARCH), ids(allIn(MARCH).sort(amountFirst)));
    await expectPages(read("plazo", MARCH), ids(allIn(MARCH).sort(soonest)));

    // A wider range than the sort-in-memory cap is read through the amount index instead.
    const bulk = RANGE_SORT_CAP + 30;
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${bulk})
      INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key,
        file_size, status, total_amount_cents, quote_deadline, created_at, updated_at)
      SELECT ${other}, 'Lote masivo ' || i, 'Descripción', 'r.pdf', 'application/pdf',
        'masivo-' || i || '.pdf', 10, 'pending',
        CASE WHEN i % 9 = 0 THEN NULL ELSE (i * 7919) % 40000 END,
        '2031-04-01T00:00:00.000Z',
        strftime('%Y-%m-%dT%H:%M:%fZ', '2031-03-02', '+' || (i * 37) || ' seconds'),
        '2031-03-02T00:00:00.000Z'
      FROM n`.execute(db);
    const added = await db
      .selectFrom("quote_requests")
      .select(["id", "buyer_id", "created_at", "total_amount_cents", "quote_deadline"])
      .where("title", "like", "Lote masivo %")
      .execute();
    for (const r of added)
      requests.push({
        id: r.id,
        buyer: r.buyer_id,
        created: r.created_at,
        amount: r.total_amount_cents,
        deadline: r.quote_deadline,
      });
    expect(allIn(MARCH).length).toBeGreaterThan(RANGE_SORT_CAP);
    await expectPages(read("monto", MARCH), ids(allIn(MARCH).sort(amountFirst)));
    await expectPages(read("antiguos", MARCH), ids(allIn(MARCH).sort(reversed(newest))));
    // A status filter on top of the range and the amount sort.
    const pendingOnly = await walk((page) =>
      listAdminRequests(db, { q: "", status: "pending", page, sort: "monto", range: MARCH }),
    );
    expect(pendingOnly.forward).toEqual(
      ids(
        allIn(MARCH)
          .filter((r) => added.some((a) => a.id === r.id))
          .sort(amountFirst),
      ),
    );
    // «Plazo» (overdue on Apr 2) with the amount sort: the open requests past their deadline.
    const overdue = await walk((page) =>
      listAdminRequests(db, {
        q: "",
        status: null,
        deadline: "overdue",
        sort: "monto",
        page,
        range: MARCH,
        now: new Date("2031-04-02T00:00:00.000Z"),
      }),
    );
    expect(overdue.forward).toEqual(
      ids(
        allIn(MARCH)
          .filter((r) => r.deadline <= "2031-04-02")
          .sort(amountFirst),
      ),
    );
    // The count of a wide range stops at the search cap ("Más de 200").
    const counted = await listAdminRequests(db, { q: "", status: null, page: first, range: MARCH });
    expect(counted.totalCapped).toBe(true);
  });
});

describe("pagos: rango por la fecha del comprobante (o de creación) y orden", () => {
  const sentNewest = byDesc<PaymentRow>(sentAt, (p) => p.id);
  const amountFirst = byDesc<PaymentRow>(
    (p) => p.amount,
    (p) => p.id,
  );
  const ids = (rows: PaymentRow[]) => rows.map((p) => p.id);
  const week: DayRange = { from: "2031-03-03", to: "2031-03-09" };

  it("el comprador: cada orden y el rango, página a página", async () => {
    const read =
      (sort: "recientes" | "antiguos" | "monto", range?: DayRange) => (page: PageRequest) =>
        listBuyerPayments(db, { buyerId: buyer, q: "", page, sort, range });
    const mine = payments.filter((p) => p.buyer === buyer);
    const mineIn = mine.filter((p) => inRange(sentAt(p), week));
    // A payment opened before the week whose proof came in it counts; one opened in it whose
    // proof came later does not.
    expect(mineIn.some((p) => !inRange(p.created, week))).toBe(true);
    expect(mine.some((p) => inRange(p.created, week) && !inRange(sentAt(p), week))).toBe(true);
    await expectPages(read("recientes"), ids([...mine].sort(sentNewest)));
    await expectPages(read("recientes", week), ids([...mineIn].sort(sentNewest)));
    await expectPages(read("antiguos", week), ids([...mineIn].sort(reversed(sentNewest))));
    await expectPages(read("monto", week), ids([...mineIn].sort(amountFirst)));
    expect((await read("recientes", week)(first)).total).toBe(mineIn.length);
  });

  it("la mesa de control: la cola de revisión y cada orden, con rango", async () => {
    const all = payments.filter((p) => inRange(sentAt(p), week));
    const read =
      (sort: "cola" | "recientes" | "antiguos" | "monto", status: PaymentStatus | null = null) =>
      (page: PageRequest) =>
        listPaymentsForAdmin(db, { q: "", status, page, sort, range: week });
    await expectPages(read("cola"), ids(inQueueOrder(all)));
    await expectPages(read("recientes"), ids([...all].sort(sentNewest)));
    await expectPages(read("antiguos"), ids([...all].sort(reversed(sentNewest))));
    await expectPages(read("monto"), ids([...all].sort(amountFirst)));
    await expectPages(
      read("monto", "confirmed"),
      ids(all.filter((p) => p.status === "confirmed").sort(amountFirst)),
    );
  });
});

describe("usuarios: rango por la fecha de alta y orden", () => {
  it("lista solo las altas del rango, de la más reciente o de la más antigua, página a página", async () => {
    const made: { id: number; created: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const id = await makeUser(i % 2 ? "buyer" : "partner");
      const created = at(1 + (i % 12), i);
      await sql`UPDATE users SET created_at = ${created} WHERE id = ${id}`.execute(db);
      made.push({ id, created });
    }
    const expected = made
      .filter((u) => inRange(u.created, MARCH))
      .sort(
        byDesc(
          (u) => u.created,
          (u) => u.id,
        ),
      )
      .map((u) => u.id);
    const read = (sort: "recientes" | "antiguos") => async (page: PageRequest) => {
      const { users, pageInfo } = await listUsersForAdmin(db, {
        q: "",
        role: null,
        page,
        sort,
        range: MARCH,
      });
      return { rows: users, pageInfo };
    };
    await expectPages(read("recientes"), expected);
    await expectPages(read("antiguos"), [...expected].reverse());
  });
});

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;
const load = (loader: Loader, path: string, cookie: string) =>
  loader({
    request: new Request(BASE + path, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });

async function download(loader: Loader, path: string) {
  const response = (await load(loader, path, adminCookie)) as Response;
  expect(response.status).toBe(200);
  return csvRows(csvText(new Uint8Array(await response.arrayBuffer())));
}

describe("las páginas y sus CSV", () => {
  it("una fecha inválida o un rango al revés se explican junto al campo y la lista sigue", async () => {
    const page = await import("~/routes/buyer.quotes._index");
    const data = (await load(
      page.loader,
      "/buyer/quotes?desde=2031-03-10&hasta=2031-03-01&orden=antiguos",
      buyerCookie,
    )) as Awaited<ReturnType<typeof page.loader>>;
    expect(data.dates.errors).toEqual({ hasta: [RANGE_ORDER_MESSAGE] });
    expect(data.dates.values).toEqual({ desde: "2031-03-10", hasta: "2031-03-01" });
    expect(data.sort).toBe("antiguos");
    // Every request of the buyer, oldest first: the refused range is not applied.
    expect(data.rows[0]!.created_at).toBe(at(-1, 0));

    const admin = await import("~/routes/admin.quotes._index");
    const nonsense = (await load(
      admin.loader,
      "/admin/quotes?desde=ayer&hasta=2031-03-01",
      adminCookie,
    )) as Awaited<ReturnType<typeof admin.loader>>;
    expect(nonsense.dates.errors).toEqual({ desde: [RANGE_FORMAT_MESSAGE] });
    expect(nonsense.dates.range).toEqual({ from: null, to: "2031-03-01" });
    expect(nonsense.rows.length).toBeGreaterThan(0);
    expect(nonsense.rows.every((r) => r.created_at < "2031-03-02")).toBe(true);
  });

  it("los CSV de solicitudes, pagos y usuarios llevan solo las filas del rango, en el orden de la lista", async () => {
    const quotesCsv = await import("~/routes/admin.quotes[.csv]");
    const one: DayRange = { from: "2031-03-04", to: "2031-03-06" };
    const quoteRows = await download(
      quotesCsv.loader,
      "/admin/quotes.csv?desde=2031-03-04&hasta=2031-03-06&orden=monto",
    );
    const expectedQuotes = requests
      .filter((r) => inRange(r.created, one))
      .sort(
        byDesc<RequestRow>(
          (r) => r.amount ?? -1,
          (r) => r.id,
        ),
      )
      .map((r) => r.id);
    expect(expectedQuotes.length).toBeGreaterThan(0);
    expect(quoteRows.rows.map((r) => Number(r["Solicitud"]))).toEqual(expectedQuotes);
    // Newest first (read by id) with only the range.
    const plain = await download(
      quotesCsv.loader,
      "/admin/quotes.csv?desde=2031-03-04&hasta=2031-03-06",
    );
    expect(plain.rows.map((r) => Number(r["Solicitud"])).sort()).toEqual(
      [...expectedQuotes].sort(),
    );

    const paymentsCsv = await import("~/routes/admin.payments[.csv]");
    const paymentRows = await download(
      paymentsCsv.loader,
      "/admin/payments.csv?desde=2031-03-04&hasta=2031-03-06&orden=antiguos",
    );
    const expectedPayments = payments
      .filter((p) => inRange(sentAt(p), one))
      .sort(reversed(byDesc<PaymentRow>(sentAt, (p) => p.id)))
      .map((p) => p.id);
    expect(expectedPayments.length).toBeGreaterThan(0);
    expect(paymentRows.rows.map((r) => Number(r["Pago"]))).toEqual(expectedPayments);
    // The review queue (the list's default order), with and without a status.
    const inOne = payments.filter((p) => inRange(sentAt(p), one));
    expect(new Set(inOne.map((p) => p.status))).toEqual(
      new Set(["pending", "confirmed", "rejected"]),
    );
    const queueRows = await download(
      paymentsCsv.loader,
      "/admin/payments.csv?desde=2031-03-04&hasta=2031-03-06",
    );
    expect(queueRows.rows.map((r) => Number(r["Pago"]))).toEqual(
      inQueueOrder(inOne).map((p) => p.id),
    );
    const confirmedRows = await download(
      paymentsCsv.loader,
      "/admin/payments.csv?desde=2031-03-04&hasta=2031-03-06&status=confirmed",
    );
    expect(confirmedRows.rows.map((r) => Number(r["Pago"]))).toEqual(
      inQueueOrder(inOne.filter((p) => p.status === "confirmed")).map((p) => p.id),
    );

    const usersCsv = await import("~/routes/admin.users[.csv]");
    const userRows = await download(
      usersCsv.loader,
      "/admin/users.csv?desde=2031-03-04&hasta=2031-03-06&orden=antiguos",
    );
    const expectedUsers = await db
      .selectFrom("users")
      .select("id")
      .where("created_at", ">=", "2031-03-04T00:00:00.000Z")
      .where("created_at", "<", "2031-03-07T00:00:00.000Z")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(expectedUsers.length).toBeGreaterThan(0);
    expect(userRows.rows.map((r) => Number(r["Usuario"]))).toEqual(expectedUsers.map((u) => u.id));
  });
});
