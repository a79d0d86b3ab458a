import { describe, expect, it } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import {
  ASSIGNMENT_STATES,
  canDecline,
  canWithdraw,
  offerRefusal,
  partnerAssignmentBadge,
  selectedOfferNotice,
  partnerSeesRequest,
  reopenedState,
} from "~/domain/assignment";
import { REQUEST_STATUSES } from "~/domain/quote-status";

/* Written out from DECISIONS §6, not computed from the code under test. */

const NOW = new Date("2026-11-26T12:00:00.000Z");
const FUTURE = "2026-11-27T12:00:00.000Z";
const PAST = "2026-11-26T11:59:59.999Z";

const pairs = ASSIGNMENT_STATES.flatMap((state) =>
  REQUEST_STATUSES.map((status) => [state, status] as const),
);

describe("offerRefusal: who may create or edit an offer", () => {
  it.each(pairs)("%s on a %s request, before the deadline", (state, status) => {
    const open = (state === "invited" || state === "offered") && status === "assigned";
    const expected =
      state === "invited" || state === "offered" ? (open ? null : "not_open") : "closed";
    expect(offerRefusal(state, status, FUTURE, NOW)).toBe(expected);
  });

  it("refuses at the deadline's exact instant and after it", () => {
    expect(offerRefusal("invited", "assigned", NOW.toISOString(), NOW)).toBe("deadline");
    expect(offerRefusal("offered", "assigned", PAST, NOW)).toBe("deadline");
  });
});

describe("decline and withdraw", () => {
  it.each(pairs)("%s on a %s request", (state, status) => {
    const invitedAndOpen = state === "invited" && status === "assigned";
    expect(canDecline(state, status)).toBe(invitedAndOpen);
    expect(canWithdraw(state, status)).toBe(invitedAndOpen);
  });
});

describe("what the partner sees", () => {
  it("declined and withdrawn partners no longer see the request", () => {
    const hidden = ASSIGNMENT_STATES.filter((s) => !partnerSeesRequest(s));
    expect(hidden).toEqual(["declined", "withdrawn"]);
  });

  const label = (state: AssignmentState, status: RequestStatus) =>
    partnerAssignmentBadge(state, status).label;

  it("badges tell the partner's own outcome, never the request's", () => {
    expect(label("invited", "assigned")).toBe("Pendiente de cotizar");
    expect(label("invited", "quoted")).toBe("Cerrada sin oferta");
    expect(label("offered", "assigned")).toBe("Oferta enviada");
    expect(label("not_selected", "approved")).toBe("No seleccionada");
    expect(label("not_selected", "paid")).toBe("No seleccionada");
    expect(label("selected", "approved")).toBe("Seleccionada");
    expect(label("selected", "paid")).toBe("Ganada y pagada");
    expect(label("selected", "rejected")).toBe("Rechazada por el comprador");
    expect(label("offered", "cancelled")).toBe("Cancelada por el comprador");
    expect(label("declined", "cancelled")).toBe("Declinada");
    expect(label("withdrawn", "assigned")).toBe("Retirada por el operador");
  });

  it("the selected partner is congratulated only while the deal stands", () => {
    for (const status of ["quoted", "approved", "paid"] as const)
      expect(selectedOfferNotice(status).tone).toBe("green");
    expect(selectedOfferNotice("quoted").text).toMatch(/^¡Felicitaciones!/);
    expect(selectedOfferNotice("paid").text).toContain("coordinar la entrega");
    for (const status of ["rejected", "cancelled"] as const) {
      expect(selectedOfferNotice(status).text).not.toContain("Felicitaciones");
      expect(selectedOfferNotice(status).tone).toBe("gray");
    }
    expect(selectedOfferNotice("rejected").text).toContain("rechazó");
  });
});

describe("reopening", () => {
  it("opens selected and not-selected offers again and leaves the rest", () => {
    expect(ASSIGNMENT_STATES.map((s) => [s, reopenedState(s)])).toEqual([
      ["invited", "invited"],
      ["offered", "offered"],
      ["declined", "declined"],
      ["withdrawn", "withdrawn"],
      ["selected", "offered"],
      ["not_selected", "offered"],
    ]);
  });
});
