import { describe, expect, it } from "vitest";
import { progressSteps } from "~/domain/quote-status";

/** The tracker as the buyer reads it: each step's label with ✓ when done, ✕ for how it ended. */
const read = (status: string, reached: string[] = []) =>
  progressSteps(status, reached).map((s) => `${s.end ? "✕" : s.done ? "✓" : "·"} ${s.label}`);

describe("progressSteps: the buyer's tracker", () => {
  it("an open request shows the five steps, done up to its status (its creation always done)", () => {
    expect(read("pending")).toEqual([
      "✓ Solicitud creada",
      "· Socio asignado",
      "· Cotización recibida",
      "· Cotización aprobada",
      "· Pago completado",
    ]);
    expect(read("quoted")).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✓ Cotización recibida",
      "· Cotización aprobada",
      "· Pago completado",
    ]);
    expect(read("paid")).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✓ Cotización recibida",
      "✓ Cotización aprobada",
      "✓ Pago completado",
    ]);
  });

  it("a rejected request shows as done the steps it went through, then the rejection", () => {
    expect(read("rejected", ["pending", "assigned", "quoted", "rejected"])).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✓ Cotización recibida",
      "✕ Cotización rechazada",
    ]);
    expect(read("rejected", ["pending", "assigned", "quoted", "approved", "rejected"])).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✓ Cotización recibida",
      "✓ Cotización aprobada",
      "✕ Cotización rechazada",
    ]);
    // A manual official quote skips the assignment: the tracker does not claim it.
    expect(read("rejected", ["pending", "quoted", "rejected"])).toEqual([
      "✓ Solicitud creada",
      "✓ Cotización recibida",
      "✕ Cotización rechazada",
    ]);
  });

  it("a cancelled request claims no step it did not reach and offers none that will never come", () => {
    expect(read("cancelled", ["pending", "cancelled"])).toEqual([
      "✓ Solicitud creada",
      "✕ Solicitud cancelada",
    ]);
    expect(read("cancelled", ["pending", "assigned", "cancelled"])).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✕ Solicitud cancelada",
    ]);
    expect(read("cancelled", ["pending", "assigned", "quoted", "approved", "cancelled"])).toEqual([
      "✓ Solicitud creada",
      "✓ Socio asignado",
      "✓ Cotización recibida",
      "✓ Cotización aprobada",
      "✕ Solicitud cancelada",
    ]);
  });

  it("without its history, a closed request shows only its creation and its end", () => {
    expect(read("cancelled")).toEqual(["✓ Solicitud creada", "✕ Solicitud cancelada"]);
    expect(read("rejected")).toEqual(["✓ Solicitud creada", "✕ Cotización rechazada"]);
  });

  it("an unknown status reads as a new request", () => {
    expect(read("borrador")).toEqual(read("pending"));
  });
});
