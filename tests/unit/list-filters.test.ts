import { describe, expect, it } from "vitest";
import {
  ADMIN_PAYMENT_SORTS,
  ADMIN_REQUEST_SORTS,
  adminRequestSortFrom,
  BUYER_REQUEST_SORTS,
  dateRangeFrom,
  hasRange,
  rangeChipLabel,
  rangeInstants,
  RANGE_FORMAT_MESSAGE,
  RANGE_ORDER_MESSAGE,
  searchWithout,
  sortFrom,
  USER_SORTS,
} from "~/domain/list-filters";

const read = (query: string) => dateRangeFrom(new URLSearchParams(query));

describe("rango de fechas de las listas (desde, hasta)", () => {
  it("lee días reales, inclusive, y deja abierto el extremo vacío", () => {
    expect(read("desde=2026-11-01&hasta=2026-11-30")).toEqual({
      values: { desde: "2026-11-01", hasta: "2026-11-30" },
      range: { from: "2026-11-01", to: "2026-11-30" },
      errors: {},
    });
    expect(read("desde=2026-11-01").range).toEqual({ from: "2026-11-01", to: null });
    expect(read("hasta=2026-11-30").range).toEqual({ from: null, to: "2026-11-30" });
    expect(read("desde=2026-11-05&hasta=2026-11-05").range).toEqual({
      from: "2026-11-05",
      to: "2026-11-05",
    });
    expect(hasRange(read("").range)).toBe(false);
    expect(read("desde=&hasta=").errors).toEqual({});
  });

  it("una fecha que no existe o no es una fecha se ignora con un mensaje junto a su campo", () => {
    const bad = read("desde=2026-02-30&hasta=mañana");
    expect(bad.range).toEqual({ from: null, to: null });
    expect(bad.errors).toEqual({ desde: [RANGE_FORMAT_MESSAGE], hasta: [RANGE_FORMAT_MESSAGE] });
    // What was typed is shown back, so the person sees what to fix.
    expect(bad.values).toEqual({ desde: "2026-02-30", hasta: "mañana" });
    // The valid end still applies.
    const half = read("desde=2026-11-01&hasta=30/11/2026");
    expect(half.range).toEqual({ from: "2026-11-01", to: null });
    expect(half.errors).toEqual({ hasta: [RANGE_FORMAT_MESSAGE] });
    expect(RANGE_FORMAT_MESSAGE).toMatch(/fecha válida/);
  });

  it("«Hasta» antes de «Desde»: ningún rango se aplica y se explica en «Hasta»", () => {
    const inverted = read("desde=2026-11-30&hasta=2026-11-01");
    expect(inverted.range).toEqual({ from: null, to: null });
    expect(inverted.errors).toEqual({ hasta: [RANGE_ORDER_MESSAGE] });
    expect(RANGE_ORDER_MESSAGE).toContain("no puede ser anterior");
  });

  it("los días son días UTC: el final es el comienzo del día siguiente", () => {
    expect(rangeInstants({ from: "2026-11-01", to: "2026-11-30" })).toEqual({
      start: "2026-11-01T00:00:00.000Z",
      end: "2026-12-01T00:00:00.000Z",
    });
    expect(rangeInstants({ from: "2026-12-31", to: "2026-12-31" })).toEqual({
      start: "2026-12-31T00:00:00.000Z",
      end: "2027-01-01T00:00:00.000Z",
    });
    expect(rangeInstants({ from: null, to: "9999-12-31" }), "through the last day: no end").toEqual(
      {
        start: null,
        end: null,
      },
    );
    expect(rangeInstants({ from: null, to: null })).toEqual({ start: null, end: null });
  });

  it("la etiqueta del filtro activo dice el rango en palabras", () => {
    const day = (d: string) => d.split("-").reverse().join("/");
    expect(rangeChipLabel({ from: "2026-11-01", to: "2026-11-30" }, day)).toBe(
      "Del 01/11/2026 al 30/11/2026",
    );
    expect(rangeChipLabel({ from: "2026-11-05", to: "2026-11-05" }, day)).toBe("El 05/11/2026");
    expect(rangeChipLabel({ from: "2026-11-01", to: null }, day)).toBe("Desde el 01/11/2026");
    expect(rangeChipLabel({ from: null, to: "2026-11-30" }, day)).toBe("Hasta el 30/11/2026");
    expect(rangeChipLabel({ from: null, to: null }, day)).toBeNull();
  });
});

describe("orden de las listas (orden)", () => {
  it("acepta solo los órdenes de cada lista; lo demás es el orden por defecto", () => {
    expect(sortFrom("antiguos", ADMIN_REQUEST_SORTS)).toBe("antiguos");
    expect(sortFrom("monto", ADMIN_REQUEST_SORTS)).toBe("monto");
    expect(sortFrom("plazo", ADMIN_REQUEST_SORTS)).toBe("plazo");
    expect(sortFrom("plazo", BUYER_REQUEST_SORTS)).toBe("recientes");
    expect(sortFrom("monto", USER_SORTS)).toBe("recientes");
    expect(sortFrom(null, ADMIN_REQUEST_SORTS)).toBe("recientes");
    expect(sortFrom("DROP TABLE", ADMIN_REQUEST_SORTS)).toBe("recientes");
    // The payments desk keeps its review queue as the default.
    expect(sortFrom(null, ADMIN_PAYMENT_SORTS)).toBe("cola");
    expect(sortFrom("recientes", ADMIN_PAYMENT_SORTS)).toBe("recientes");
  });

  it("la mesa de control sigue leyendo sus enlaces antiguos ?sort=deadline", () => {
    expect(adminRequestSortFrom(new URLSearchParams("sort=deadline"))).toBe("plazo");
    expect(adminRequestSortFrom(new URLSearchParams("sort=deadline&orden=monto"))).toBe("monto");
    expect(adminRequestSortFrom(new URLSearchParams("sort=otro"))).toBe("recientes");
  });
});

describe("quitar un filtro", () => {
  it("quita sus parámetros y vuelve a la primera página; los demás filtros se quedan", () => {
    expect(
      searchWithout("?q=acero&desde=2026-11-01&hasta=2026-11-30&orden=monto&after=abc", [
        "desde",
        "hasta",
      ]),
    ).toBe("?q=acero&orden=monto");
    expect(searchWithout("?orden=antiguos&page=3", ["orden"])).toBe("");
  });
});
