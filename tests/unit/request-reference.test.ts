import { describe, expect, it } from "vitest";
import { paymentReference } from "~/domain/payment-instructions";
import { requestReferenceIn } from "~/utils/search";

describe("una búsqueda por número de solicitud", () => {
  it("reconoce el número como lo escriben la referencia de pago, los PDF y el operador", () => {
    for (const text of ["12", " #12 ", "N.º 12", "Nº12", "n° 12", "No. 12"])
      expect(requestReferenceIn(text), text).toBe(12);
    expect(requestReferenceIn(paymentReference(4077))).toBe(4077);
    expect(requestReferenceIn("solicitud 9")).toBe(9);
  });

  it("no toma por número un texto que solo contiene cifras", () => {
    for (const text of ["lote 12", "12 sucursales", "12,5", "", "#", "1234567890"])
      expect(requestReferenceIn(text), text).toBeNull();
  });
});
