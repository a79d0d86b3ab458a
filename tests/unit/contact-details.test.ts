import { describe, expect, it } from "vitest";
import {
  contactDetailLabel,
  findContactDetails,
  forwardDraft,
  HIDDEN_CONTACT_DETAIL,
  type ContactDetailKind,
  type PartnerIdentity,
} from "~/domain/contact-details";

const PARTNER: PartnerIdentity = {
  firstName: "Pedro",
  lastName: "Gómez Treviño",
  companyName: "Aceros del Norte, S.A. de C.V.",
};

/** The stretches found in `text`, as the text they cover. */
function found(text: string, identity: PartnerIdentity = {}): string[] {
  return findContactDetails(text, identity).map((d) => text.slice(d.start, d.end));
}

function kindsOf(text: string, identity: PartnerIdentity = {}): ContactDetailKind[][] {
  return findContactDetails(text, identity).map((d) => d.kinds);
}

describe("correos electrónicos", () => {
  it.each([
    ["Escríbanme a ventas@acerosnorte.com.mx para el plano.", "ventas@acerosnorte.com.mx"],
    ["contacto: p.gomez+cotiza@gmail.com", "p.gomez+cotiza@gmail.com"],
    ["Correo: VENTAS@ACEROS.MX.", "VENTAS@ACEROS.MX"],
    ["(jose.nuñez@fábrica.mx)", "jose.nuñez@fábrica.mx"],
    ["ventas arroba acerosnorte punto com", "ventas arroba acerosnorte punto com"],
    ["ventas [at] acerosnorte [punto] mx", "ventas [at] acerosnorte [punto] mx"],
    ["ventas(arroba)aceros.com", "ventas(arroba)aceros.com"],
  ])("%s", (text, expected) => {
    expect(found(text)).toEqual([expected]);
    expect(kindsOf(text)[0]).toContain("email");
  });
});

describe("teléfonos", () => {
  it.each([
    ["Llámenos al +52 55 1234 5678 de 9 a 18 h.", "+52 55 1234 5678"],
    ["Oficina (55) 1234-5678, pregunte por ventas.", "(55) 1234-5678"],
    ["Mi número 55-1234-5678 y con gusto.", "55-1234-5678"],
    ["55 1234 5678", "55 1234 5678"],
    ["marque 81.8123.4567 en horario de oficina", "81.8123.4567"],
    ["5512345678", "5512345678"],
    ["+1 (555) 123-4567", "+1 (555) 123-4567"],
    ["+34 600 000 000", "+34 600 000 000"],
    ["+57 301 234 5678", "+57 301 234 5678"],
    ["+5215512345678", "+5215512345678"],
    ["0052 55 1234 5678", "0052 55 1234 5678"],
    ["555-123-4567", "555-123-4567"],
    ["Tel. 5555-1234", "5555-1234"],
    ["cel: 55 12 34 56 78", "55 12 34 56 78"],
    ["WhatsApp 33 1234 5678", "33 1234 5678"],
    ["tel:+525512345678", "+525512345678"],
  ])("%s", (text, expected) => {
    expect(found(text)).toEqual([expected]);
    expect(kindsOf(text)).toEqual([["phone"]]);
  });
});

describe("escritos para pasar inadvertidos", () => {
  it.each([
    [
      "cifras de ancho completo",
      "Llamen al ５５ １２３４ ５６７８",
      "５５ １２３４ ５６７８",
      "phone",
    ],
    [
      "cifras separadas por espacios de ancho cero",
      "55\u200B1234\u200B5678",
      "55\u200B1234\u200B5678",
      "phone",
    ],
    ["arroba de ancho completo", "ventas＠aceros.mx", "ventas＠aceros.mx", "email"],
    ["un guion suave dentro del dominio", "www.ace\u00ADros.mx", "www.ace\u00ADros.mx", "url"],
  ] as const)("%s", (_name, text, expected, kind) => {
    expect(found(text)).toEqual([expected]);
    expect(kindsOf(text)).toEqual([[kind]]);
  });
});

describe("sitios web", () => {
  it.each([
    [
      "Vean el catálogo en https://acerosnorte.com.mx/catalogo?id=3.",
      "https://acerosnorte.com.mx/catalogo?id=3",
    ],
    ["www.acerosnorte.mx", "www.acerosnorte.mx"],
    ["Fichas técnicas en acerosnorte.com.mx", "acerosnorte.com.mx"],
    ["Más en foo.com.", "foo.com"],
    ["(ver http://x.co/a)", "http://x.co/a"],
    ["acerosnorte.mx/fichas/valvula-304.pdf", "acerosnorte.mx/fichas/valvula-304.pdf"],
    ["WWW.ACEROS.COM", "WWW.ACEROS.COM"],
  ])("%s", (text, expected) => {
    expect(found(text)).toEqual([expected]);
    expect(kindsOf(text)).toEqual([["url"]]);
  });
});

describe("el nombre y la empresa del socio", () => {
  it("encuentra nombre, apellidos y empresa sin importar mayúsculas ni acentos", () => {
    const text = "Soy pedro, de ACEROS DEL NORTE. Atte. Gomez Trevino";
    expect(found(text, PARTNER)).toEqual(["pedro", "ACEROS DEL NORTE", "Gomez Trevino"]);
    expect(kindsOf(text, PARTNER)).toEqual([["name"], ["company"], ["name"]]);
  });

  it("reconoce la empresa con su forma legal y sin ella", () => {
    expect(found("Cotiza Aceros del Norte, S.A. de C.V.", PARTNER)).toEqual([
      "Aceros del Norte, S.A. de C.V.",
    ]);
    // The legal form alone names nobody: the copy keeps it.
    expect(found("Cotiza Aceros del Norte SA de CV", PARTNER)).toEqual(["Aceros del Norte"]);
  });

  it("toma cada apellido por separado, pero no las partículas ni palabras que solo los contienen", () => {
    const identity = { firstName: "María José", lastName: "de la Fuente" };
    expect(found("Saludos, José", identity)).toEqual(["José"]);
    expect(found("La fuente de la información", identity)).toEqual(["fuente"]);
    expect(found("Pedrosa y Pedregal", PARTNER)).toEqual([]);
    expect(found("de la tubería", identity)).toEqual([]);
  });

  it("une lo que va seguido: una firma es un solo dato oculto", () => {
    const text = "Saludos,\nPedro Gómez, Aceros del Norte, +52 81 1234 5678";
    expect(found(text, PARTNER)).toEqual(["Pedro Gómez, Aceros del Norte, +52 81 1234 5678"]);
    expect(kindsOf(text, PARTNER)).toEqual([["name", "company", "phone"]]);
  });

  it("un nombre dentro de un correo es parte del correo", () => {
    expect(kindsOf("Escríbanme a pedro@aceros.mx", PARTNER)).toEqual([["email"]]);
  });

  it("sin datos del socio no busca nombres", () => {
    expect(found("Pedro de Aceros del Norte", {})).toEqual([]);
    expect(found("Pedro", { firstName: null, lastName: "", companyName: "  " })).toEqual([]);
  });
});

describe("no toma por dato de contacto", () => {
  it.each([
    "Necesitamos 500 metros de tubería de 6 pulgadas.",
    "Monto: 1 250 000 MXN; IVA 16 %.",
    "Total 12.345.678 pesos",
    "Entrega el 2026-11-25 o el 25/11/2026, a las 14:30.",
    "Fecha 25-11-2026 y 2026.11.25",
    "Sobre la Solicitud N.º 4077 y la solicitud #12",
    "Cotización oficial N.º 8 · versión 2",
    "Lote 12, DN50, acero inoxidable 304, cédula 40.",
    "Medidas: 10 12 15 20 25 30 mm",
    "Partidas de 500 1000 2500 piezas y de 1000 2000 3000 metros",
    "Norma NOM-001-SEDE-2012 e ISO 9001:2015",
    "Código postal 06600; RFC ANO120304ABC.",
    "Tolerancia ±0.5 mm, 3/4 de pulgada, -12.50 de ajuste.",
    "p.ej. válvulas S.A. de compuerta, ver plano.dwg y anexo.pdf",
    "Listo.Me confirman el plazo.",
    "Versión 2.0 del plano, revisión 3.5",
    "Cuenta CLABE 012180001234567895",
  ])("%s", (text) => {
    expect(found(text, PARTNER)).toEqual([]);
  });

  // Apart from the table: a «$» in a title is read as a placeholder by it.each.
  it("precios con separadores de miles", () => {
    expect(found("El precio es de $3,800.50 por pieza, 10,000 piezas en total.")).toEqual([]);
    expect(found("Total: $12,345,678.90 (doce millones)")).toEqual([]);
  });
});

describe("la copia para el comprador", () => {
  it("reemplaza cada dato y cuenta cuántos ocultó, dejando el resto tal cual", () => {
    const body =
      "¿Aceptan acero 304? Soy Pedro de Aceros del Norte.\n" +
      "Dudas a ventas@acerosnorte.mx o al (81) 1234-5678; catálogo en www.acerosnorte.mx.";
    const draft = forwardDraft(body, PARTNER);
    expect(draft.copy).toBe(
      `¿Aceptan acero 304? Soy ${HIDDEN_CONTACT_DETAIL} de ${HIDDEN_CONTACT_DETAIL}.\n` +
        `Dudas a ${HIDDEN_CONTACT_DETAIL} o al ${HIDDEN_CONTACT_DETAIL}; catálogo en ${HIDDEN_CONTACT_DETAIL}.`,
    );
    expect(draft.hidden).toBe(5);
    expect(draft.parts.map((p) => p.text).join("")).toBe(body);
    expect(draft.parts.filter((p) => p.hidden).map((p) => p.text)).toEqual([
      "Pedro",
      "Aceros del Norte",
      "ventas@acerosnorte.mx",
      "(81) 1234-5678",
      "www.acerosnorte.mx",
    ]);
  });

  it("un mensaje sin datos pasa entero y sin marcas", () => {
    const draft = forwardDraft("¿El plano incluye las bridas ciegas?", PARTNER);
    expect(draft).toEqual({
      parts: [{ text: "¿El plano incluye las bridas ciegas?", hidden: null }],
      copy: "¿El plano incluye las bridas ciegas?",
      hidden: 0,
    });
  });

  it("nombra en español lo que oculta cada marca", () => {
    expect(contactDetailLabel(["email"])).toBe("correo electrónico");
    expect(contactDetailLabel(["name", "company", "phone"])).toBe(
      "nombre del socio, empresa del socio y teléfono",
    );
  });
});
