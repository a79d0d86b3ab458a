import { beforeAll, describe, expect, it } from "vitest";
import {
  funnel,
  histogram,
  median,
  monthLabel,
  periodStarts,
  shareWithin,
} from "~/domain/analytics";
import { getAnalytics } from "~/models/analytics.server";
import { db } from "~/services/db.server";

/**
 * A small, fixed data set whose figures are worked out by hand below. "Now" is 15 Nov 2026, so the
 * 12-month window runs from Dec 2025 to Nov 2026.
 */
const NOW = new Date("2026-11-15T12:00:00.000Z");

async function user(email: string, role: "buyer" | "partner" | "admin", company: string) {
  const { id } = await db
    .insertInto("users")
    .values({
      email,
      password_hash: "x",
      first_name: "Nombre",
      last_name: "Apellido",
      company_name: company,
      role,
      email_verified_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function request(buyerId: number, status: string, createdAt: string) {
  const { id } = await db
    .insertInto("quote_requests")
    .values({
      buyer_id: buyerId,
      title: `Solicitud ${createdAt}`,
      file_name: "req.pdf",
      file_type: "application/pdf",
      file_key: "2026/01/req.pdf",
      file_size: 10,
      status: status as "pending",
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function partnerQuote(
  requestId: number,
  partnerId: number,
  cents: number,
  createdAt: string,
  selected = false,
) {
  const { id } = await db
    .insertInto("partner_quotes")
    .values({
      quote_request_id: requestId,
      partner_id: partnerId,
      quoted_amount_cents: cents,
      is_selected: selected ? 1 : 0,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function officialQuote(requestId: number, finalCents: number, commissionCents: number) {
  const { id } = await db
    .insertInto("official_quotes")
    .values({
      quote_request_id: requestId,
      final_amount_cents: finalCents,
      commission_percentage: 5,
      commission_amount_cents: commissionCents,
      currency: "USD",
      valid_until: "2026-12-31",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function payment(
  requestId: number,
  officialQuoteId: number,
  buyerId: number,
  cents: number,
  state: {
    status: "pending" | "confirmed";
    submittedAt: string | null;
    confirmedAt: string | null;
  },
) {
  const { id } = await db
    .insertInto("payments")
    .values({
      quote_request_id: requestId,
      official_quote_id: officialQuoteId,
      buyer_id: buyerId,
      amount_cents: cents,
      status: state.status,
      submitted_at: state.submittedAt,
      confirmed_at: state.confirmedAt,
      updated_at: NOW.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

beforeAll(async () => {
  const buyer = await user("comprador@ejemplo.test", "buyer", "Compradora S.A.");
  const alfa = await user("alfa@ejemplo.test", "partner", "Alfa Industrial");
  const beta = await user("beta@ejemplo.test", "partner", "Beta Servicios");

  // R1: paid. First quote after 10 h (Alfa, selected); Beta's later quote does not count.
  const r1 = await request(buyer, "paid", "2026-10-01T00:00:00.000Z");
  await partnerQuote(r1, alfa, 100_000, "2026-10-01T10:00:00.000Z", true);
  await partnerQuote(r1, beta, 120_000, "2026-10-02T00:00:00.000Z");
  const oq1 = await officialQuote(r1, 100_000, 5_000);
  const p1 = await payment(r1, oq1, buyer, 100_000, {
    status: "confirmed",
    submittedAt: "2026-10-04T00:00:00.000Z",
    confirmedAt: "2026-10-05T00:00:00.000Z",
  });
  await db
    .insertInto("buyer_commissions")
    .values({
      buyer_id: buyer,
      payment_id: p1,
      commission_amount_cents: 5_000,
      loyalty_points: 1000,
    })
    .execute();

  // R2: approved, proof sent, waiting for validation. First quote after 36 h (Beta, selected).
  const r2 = await request(buyer, "approved", "2026-10-10T00:00:00.000Z");
  await partnerQuote(r2, beta, 50_000, "2026-10-11T12:00:00.000Z", true);
  const oq2 = await officialQuote(r2, 50_000, 2_500);
  await payment(r2, oq2, buyer, 50_000, {
    status: "pending",
    submittedAt: "2026-10-12T00:00:00.000Z",
    confirmedAt: null,
  });

  // R3: assigned, first quote after exactly 72 h.
  const r3 = await request(buyer, "assigned", "2026-11-01T00:00:00.000Z");
  await partnerQuote(r3, alfa, 80_000, "2026-11-04T00:00:00.000Z");

  // R4: pending, no quote.
  await request(buyer, "pending", "2026-11-02T00:00:00.000Z");

  // R5: paid. First quote after 20 h (Alfa, selected).
  const r5 = await request(buyer, "paid", "2026-11-03T00:00:00.000Z");
  await partnerQuote(r5, alfa, 200_000, "2026-11-03T20:00:00.000Z", true);
  const oq5 = await officialQuote(r5, 200_000, 10_000);
  const p5 = await payment(r5, oq5, buyer, 200_000, {
    status: "confirmed",
    submittedAt: "2026-11-05T00:00:00.000Z",
    confirmedAt: "2026-11-06T00:00:00.000Z",
  });
  await db
    .insertInto("buyer_commissions")
    .values({
      buyer_id: buyer,
      payment_id: p5,
      commission_amount_cents: 10_000,
      loyalty_points: 2000,
    })
    .execute();

  // R6: rejected, older than the 12-month window.
  await request(buyer, "rejected", "2025-05-01T00:00:00.000Z");
});

describe("analíticas calculadas con los datos", () => {
  it("cuenta solicitudes por estado y la conversión (pagadas / todas)", async () => {
    const a = await getAnalytics(db, NOW);
    expect(a.counts).toEqual({
      pending: 1,
      assigned: 1,
      quoted: 0,
      approved: 1,
      paid: 2,
      rejected: 1,
      cancelled: 0,
    });
    expect(a.total).toBe(6);
    expect(a.conversion).toBeCloseTo(2 / 6);
  });

  it("suma el volumen pagado y las comisiones de los pagos confirmados", async () => {
    const a = await getAnalytics(db, NOW);
    expect(a.paidVolumeCents).toBe(300_000); // 1,000.00 + 2,000.00
    expect(a.confirmedPayments).toBe(2);
    expect(a.commissionsCents).toBe(15_000); // 50.00 + 100.00
    expect(a.pendingValidations).toEqual({ count: 1, cents: 50_000 });
  });

  it("mide el tiempo hasta la primera cotización frente a la promesa de 24-48 h", async () => {
    const a = await getAnalytics(db, NOW);
    // First quotes after 10 h, 36 h, 72 h and 20 h → sorted 10, 20, 36, 72.
    expect(a.turnaround.measured).toBe(4);
    expect(a.turnaround.medianHours).toBe(28); // (20 + 36) / 2
    expect(a.turnaround.within48).toBe(0.75); // 10, 20, 36
    expect(a.turnaround.within24).toBe(0.5); // 10, 20
    expect(a.turnaround.histogram.map((b) => b.count)).toEqual([1, 1, 1, 1, 0]);
  });

  it("ordena los 5 mejores socios por cotizaciones ganadas", async () => {
    const a = await getAnalytics(db, NOW);
    expect(a.topPartners.map(({ name, won, cents }) => ({ name, won, cents }))).toEqual([
      { name: "Alfa Industrial", won: 2, cents: 300_000 },
      { name: "Beta Servicios", won: 1, cents: 50_000 },
    ]);
  });

  it("arma el embudo y las series de los últimos 12 meses", async () => {
    const a = await getAnalytics(db, NOW);
    expect(a.funnel.map((s) => s.count)).toEqual([6, 4, 3, 3, 2]);
    expect(a.monthlyRequests).toHaveLength(12);
    expect(a.monthlyRequests[0]!.month).toBe("2025-12");
    expect(a.monthlyRequests.at(-1)).toEqual({ month: "2026-11", value: 3 });
    expect(a.monthlyRequests.at(-2)).toEqual({ month: "2026-10", value: 2 });
    expect(a.monthlyRequests.reduce((sum, m) => sum + m.value, 0)).toBe(5); // R6 is too old
    expect(a.monthlyVolume.at(-1)).toEqual({ month: "2026-11", value: 200_000 });
    expect(a.monthlyVolume.at(-2)).toEqual({ month: "2026-10", value: 100_000 });
  });
});

describe("funciones puras de analíticas", () => {
  it("mediana, proporciones e histograma", () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(shareWithin([], 48)).toBeNull();
    expect(shareWithin([48, 49], 48)).toBe(0.5);
    expect(histogram([0, 12, 12.5, 48, 100]).map((b) => b.count)).toEqual([2, 1, 1, 0, 1]);
  });

  it("embudo desde los estados, etiquetas de mes y periodos", () => {
    expect(
      funnel({
        pending: 0,
        assigned: 0,
        quoted: 0,
        approved: 0,
        paid: 0,
        rejected: 0,
        cancelled: 0,
      }).map((s) => s.count),
    ).toEqual([0, 0, 0, 0, 0]);
    expect(monthLabel("2026-01")).toBe("ene 26");
    // The month names dates use: «sept», as Intl.DateTimeFormat es-ES prints it.
    expect(monthLabel("2025-09")).toBe("sept 25");
    // Sunday 15 Nov 2026 → the week started on Monday 9 Nov.
    expect(periodStarts(NOW)).toEqual({
      today: "2026-11-15T00:00:00.000Z",
      week: "2026-11-09T00:00:00.000Z",
    });
  });
});
