import { describe, expect, it } from "vitest";
import { revisionBlockedByPayments } from "~/domain/payments";

describe("revisionBlockedByPayments", () => {
  it("allows a new version with no payment, a payment still without proof, or only rejected ones", () => {
    expect(revisionBlockedByPayments([])).toBeNull();
    expect(revisionBlockedByPayments([{ status: "pending", submitted_at: null }])).toBeNull();
    expect(
      revisionBlockedByPayments([{ status: "rejected", submitted_at: "2026-11-20T10:00:00Z" }]),
    ).toBeNull();
  });

  it("refuses while a proof waits for review, and for good once paid", () => {
    expect(
      revisionBlockedByPayments([{ status: "pending", submitted_at: "2026-11-20T10:00:00Z" }]),
    ).toEqual({
      code: "locked",
      message:
        "Hay un comprobante de pago en revisión: confírmalo o recházalo antes de emitir una nueva versión.",
    });
    expect(
      revisionBlockedByPayments([
        { status: "rejected", submitted_at: "2026-11-19T10:00:00Z" },
        { status: "confirmed", submitted_at: "2026-11-20T10:00:00Z" },
      ]),
    ).toMatchObject({ code: "conflict" });
  });
});
