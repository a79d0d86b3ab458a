import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatMoney } from "~/domain/money";
import { paymentReference } from "~/domain/payment-instructions";
import { PAYMENT_METHOD_LABELS, receiptNumber } from "~/domain/payments";
import type { PaymentMethod } from "../../db/schema";
import { formatQuantity, formatRate, RATE_SCALE, type OfferLine } from "~/domain/offer";
import { countOf, formatDate, formatDateTime, formatNumber } from "~/utils/format";

interface OfficialQuotePdfData {
  version: number;
  requestId: number;
  requestTitle: string;
  requestDescription: string | null;
  buyerName: string;
  buyerCompany: string | null;
  buyerEmail: string;
  /** Empty when the quote is a single amount: the PDF then shows only the totals, as the pages do. */
  lines: OfferLine[];
  subtotalCents: number;
  /** Hundredths of a percent (1600 = 16 %). */
  taxRate: number;
  taxCents: number;
  /** `final_amount_cents`: subtotal + tax, what the buyer pays. */
  totalCents: number;
  commissionPercentage: number;
  commissionAmountCents: number;
  leadTimeDays: number | null;
  paymentTerms: string | null;
  /** Why this version replaced the previous one (versions after the first). */
  revisionReason: string | null;
  currency: string;
  validUntil: string;
  issuedAt: string;
  /** The operator's «Instrucciones de pago» when the PDF was made; empty when none are set. */
  paymentInstructions: string;
}

interface PaymentReceiptPdfData {
  paymentId: number;
  requestId: number;
  requestTitle: string;
  /** The version of the official quote paid (the quote is numbered by its request). */
  officialQuoteVersion: number;
  buyerName: string;
  buyerCompany: string | null;
  buyerEmail: string;
  amountCents: number;
  currency: string;
  method: PaymentMethod | null;
  submittedAt: string | null;
  confirmedAt: string;
  loyaltyPoints: number;
}

/** pdf-lib's standard fonts speak WinAnsi: Spanish accents are fine, anything else becomes "?". */
function winAnsi(text: string): string {
  return text.replace(
    /[^\x20-\x7e\u00a0-\u00ff\u20ac\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026]/g,
    "?",
  );
}

/**
 * Text broken into lines no wider than `width`: at spaces (a no-break space, as in "USD 1.00",
 * keeps its words together), and inside a word that is wider than the whole column on its own, so
 * nothing is ever drawn past the column or off the page.
 */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (value: string) => font.widthOfTextAtSize(value, size) <= width;
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const word of winAnsi(paragraph)
      .split(/[ \t]+/)
      .filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      let rest = word;
      while (!fits(rest)) {
        let cut = 1;
        while (cut < rest.length && fits(rest.slice(0, cut + 1))) cut++;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

type Color = ReturnType<typeof rgb>;

const INK = rgb(0.06, 0.09, 0.16);
const BRAND = rgb(0.118, 0.251, 0.686);
const MUTED = rgb(0.28, 0.33, 0.41);
const RULE = rgb(0.85, 0.87, 0.9);
const WHITE = rgb(1, 1, 1);
const A4: [number, number] = [595.28, 841.89];
const LEFT = 50;
const RIGHT = 545;
const WIDTH = RIGHT - LEFT;
/** Where content starts on the first page (under the letterhead) and on the following ones. */
const FIRST_TOP = 735;
const NEXT_TOP = 770;
/** No content is drawn below this line: the footer (document and page number) lives under it. */
const BOTTOM = 60;

interface TableColumn {
  header: string;
  width: number;
  align: "left" | "right";
}

/**
 * A document in the platform's letterhead (the brand band with "CotizaHub"), written top-down on
 * A4 pages: when the content reaches the foot of a page it flows onto a new one that opens with a
 * slimmer band and `title` («… (continuación)»), and every page ends with the title and «Página i
 * de n». Every document of the platform (official quote, payment receipt) is laid out with these
 * pieces so they look like one family.
 */
async function letterhead(title: string) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(title));
  pdf.setAuthor("CotizaHub");
  pdf.setLanguage("es-ES");
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage(A4);
  let y = 0;

  const text = (
    value: string,
    opts: { x?: number; size?: number; font?: PDFFont; color?: Color } = {},
  ) => {
    page.drawText(winAnsi(value), {
      x: opts.x ?? LEFT,
      y,
      size: opts.size ?? 11,
      font: opts.font ?? regular,
      color: opts.color ?? INK,
    });
  };
  /** `value` ending at `right` (amounts line up on their last digit). */
  const textRight = (
    value: string,
    right: number,
    opts: { size?: number; font?: PDFFont } = {},
  ) => {
    const font = opts.font ?? regular;
    const width = font.widthOfTextAtSize(winAnsi(value), opts.size ?? 11);
    text(value, { ...opts, x: right - width });
  };
  const rule = (at: number) =>
    page.drawLine({
      start: { x: LEFT, y: at },
      end: { x: RIGHT, y: at },
      thickness: 0.5,
      color: RULE,
    });

  page.drawRectangle({ x: 0, y: 770, width: A4[0], height: 72, color: BRAND });
  y = 800;
  text("CotizaHub", { size: 24, font: bold, color: WHITE });
  text("Marketplace de cotizaciones B2B", { x: 360, size: 10, color: WHITE });
  y = FIRST_TOP;

  const nextPage = () => {
    page = pdf.addPage(A4);
    page.drawRectangle({ x: 0, y: 806, width: A4[0], height: 36, color: BRAND });
    y = 819;
    text("CotizaHub", { size: 14, font: bold, color: WHITE });
    const continued = wrap(`${title} (continuación)`, regular, 9, 330)[0]!;
    page.drawText(winAnsi(continued), {
      x: RIGHT - regular.widthOfTextAtSize(continued, 9),
      y,
      size: 9,
      font: regular,
      color: WHITE,
    });
    y = NEXT_TOP;
  };
  /** Starts a new page unless `needed` points still fit above the foot of this one. */
  const room = (needed: number) => {
    if (y - needed < BOTTOM) {
      nextPage();
      return true;
    }
    return false;
  };
  /** Moves the pen `by` points down the page, onto a new page at its foot. */
  const down = (by: number) => {
    if (y - by < BOTTOM) nextPage();
    else y -= by;
  };

  return {
    regular,
    text,
    down,
    /** The document's title and the line under it. */
    heading(value: string, subtitle: string) {
      for (const line of wrap(value, bold, 18, WIDTH)) {
        text(line, { size: 18, font: bold });
        y -= 22;
      }
      y += 2;
      text(subtitle, { color: MUTED });
    },
    /** A section title, kept on the same page as the first `keep` points that follow it. */
    section(value: string, keep = 60) {
      room(keep);
      text(value, { font: bold, size: 12, color: BRAND });
    },
    /** Wrapped text across the whole width, one line every `size + 5` points. */
    paragraph(value: string, opts: { size?: number; color?: Color; font?: PDFFont } = {}) {
      const size = opts.size ?? 11;
      for (const line of wrap(value, opts.font ?? regular, size, WIDTH)) {
        down(size + 5);
        text(line, { ...opts, size });
      }
    },
    /** Label on the left, value in bold on the right, a rule under each row. */
    rows(rows: [string, string][]) {
      for (const [label, value] of rows) {
        down(22);
        rule(y - 6);
        text(label);
        textRight(value, RIGHT, { font: bold });
      }
    },
    /**
     * A table whose cells wrap inside their column; a row never splits across pages, and the
     * header row is drawn again at the top of each page the table continues on.
     */
    table(columns: TableColumn[], rows: string[][], size = 9) {
      const lineHeight = size + 3;
      const gap = (WIDTH - columns.reduce((sum, c) => sum + c.width, 0)) / (columns.length - 1);
      const xs = columns.map(
        (_, i) => LEFT + columns.slice(0, i).reduce((sum, c) => sum + c.width + gap, 0),
      );
      const drawRow = (cells: string[][], font: PDFFont) => {
        const top = y;
        cells.forEach((lines, i) => {
          const column = columns[i]!;
          lines.forEach((line, n) => {
            y = top - size - 4 - n * lineHeight;
            if (column.align === "right") textRight(line, xs[i]! + column.width, { size, font });
            else text(line, { x: xs[i]!, size, font });
          });
        });
        y = top - 8 - Math.max(...cells.map((lines) => lines.length)) * lineHeight;
        rule(y + 2);
      };
      const header = () =>
        drawRow(
          columns.map((c) => wrap(c.header, bold, size, c.width)),
          bold,
        );
      room(2 * (lineHeight + 8));
      header();
      for (const row of rows) {
        const cells = row.map((value, i) => wrap(value, regular, size, columns[i]!.width));
        const height = 8 + Math.max(...cells.map((lines) => lines.length)) * lineHeight;
        if (room(height)) header();
        drawRow(cells, regular);
      }
    },
    /** Small print, wrapped. */
    notes(lines: string[]) {
      for (const line of lines) {
        for (const part of wrap(line, regular, 9, WIDTH)) {
          down(13);
          text(part, { size: 9, color: MUTED });
        }
      }
    },
    async save() {
      const pages = pdf.getPages();
      const footer = wrap(title, regular, 8, 380)[0]!;
      pages.forEach((each, i) => {
        const number = `Página ${i + 1} de ${pages.length}`;
        each.drawText(footer, { x: LEFT, y: 30, size: 8, font: regular, color: MUTED });
        each.drawText(number, {
          x: RIGHT - regular.widthOfTextAtSize(number, 8),
          y: 30,
          size: 8,
          font: regular,
          color: MUTED,
        });
      });
      return pdf.save();
    },
  };
}

/** The client block every document opens with. */
function client(
  doc: Awaited<ReturnType<typeof letterhead>>,
  data: { buyerName: string; buyerCompany: string | null; buyerEmail: string },
) {
  doc.section("Cliente");
  for (const line of [
    data.buyerName,
    data.buyerCompany ?? "Empresa no especificada",
    data.buyerEmail,
  ]) {
    doc.down(16);
    doc.text(line);
  }
}

const LINE_COLUMNS: TableColumn[] = [
  { header: "Descripción", width: 205, align: "left" },
  { header: "Cantidad", width: 85, align: "right" },
  { header: "Precio unitario", width: 85, align: "right" },
  { header: "Importe", width: 90, align: "right" },
];

/**
 * One version of an official quote as a Spanish A4 document: platform, version, dates, client,
 * request, its lines (flowing onto further pages when there are many), subtotal, tax, total, the
 * platform's commission, lead time, payment terms and, for a revision, its reason. Figures are
 * formatted by the same helpers as the pages (formatMoney, formatQuantity, formatRate), so the
 * PDF says what the buyer's screen says. A quote without lines shows only its totals, as the
 * pages do.
 */
export async function renderOfficialQuotePdf(data: OfficialQuotePdfData): Promise<Uint8Array> {
  // Numbered by its request: every version of one quote carries the same number.
  const title = `Cotización oficial N.º ${data.requestId} · versión ${data.version}`;
  const doc = await letterhead(title);
  const money = (cents: number) => formatMoney(cents, data.currency);
  doc.heading(
    title,
    `Emitida el ${formatDate(data.issuedAt)} · Válida hasta el ${formatDate(data.validUntil)}`,
  );

  doc.down(40);
  client(doc, data);

  doc.down(34);
  doc.section("Solicitud");
  doc.paragraph(`N.º ${data.requestId} · ${data.requestTitle}`);
  if (data.requestDescription) {
    const description = wrap(data.requestDescription, doc.regular, 10, WIDTH);
    const shown = description.length > 8 ? [...description.slice(0, 7), "…"] : description;
    doc.paragraph(shown.join("\n"), { size: 10, color: MUTED });
  }

  if (data.lines.length > 0) {
    doc.down(34);
    doc.section("Detalle");
    doc.down(6);
    doc.table(
      LINE_COLUMNS,
      data.lines.map((line) => [
        line.description,
        `${formatQuantity(line.quantityMilli)}${line.unit ? ` ${line.unit}` : ""}`,
        money(line.unitPriceCents),
        money(line.lineCents),
      ]),
    );
  }

  doc.down(34);
  doc.section("Totales");
  doc.rows([
    ["Subtotal", money(data.subtotalCents)],
    [`IVA (${formatRate(data.taxRate)})`, money(data.taxCents)],
    ["Total", money(data.totalCents)],
    // Part of the total, paid by the partner out of its payout (DECISIONS §9): not an addition.
    [
      `Comisión incluida, a cargo del socio (${formatRate(Math.round(data.commissionPercentage * RATE_SCALE))} del subtotal)`,
      money(data.commissionAmountCents),
    ],
    ["Moneda", data.currency],
  ]);

  doc.down(34);
  doc.section("Condiciones");
  doc.paragraph(
    `Plazo de entrega: ${data.leadTimeDays === null ? "No indicado" : countOf(data.leadTimeDays, "día", "días")}`,
  );
  doc.paragraph(`Condiciones de pago: ${data.paymentTerms ?? "No indicadas"}`);
  if (data.revisionReason)
    doc.paragraph(`Motivo de la versión ${data.version}: ${data.revisionReason}`);

  doc.down(34);
  doc.section("Cómo pagar");
  doc.paragraph(
    data.paymentInstructions || "El equipo de CotizaHub le enviará los datos para el pago.",
    { size: 10 },
  );
  doc.paragraph(`Referencia del pago: ${paymentReference(data.requestId)}`);

  doc.down(34);
  doc.notes([
    "El total incluye la comisión de intermediación de CotizaHub, calculada sobre el subtotal (sin IVA) y a cargo del socio, que la descuenta de lo que recibe. CotizaHub facilita la operación entre comprador y proveedor y no es parte del contrato de compraventa.",
    "El pago se valida por nuestro equipo administrativo en un plazo de hasta 2 días hábiles. Esta cotización vence en la fecha indicada; solo la versión vigente puede aprobarse o pagarse.",
  ]);
  return doc.save();
}

/**
 * The receipt of a confirmed payment («Recibo de pago»), one page in the official quote's style:
 * platform, receipt number, buyer, request and official quote, amount, method, dates and the
 * loyalty points the payment earned. It is signed by the platform, not by the operator who
 * confirmed it: the receipt is the platform's word to the buyer and stays right whoever confirmed.
 */
export async function renderPaymentReceiptPdf(data: PaymentReceiptPdfData): Promise<Uint8Array> {
  const number = receiptNumber(data.paymentId);
  const doc = await letterhead(`Recibo de pago ${number}`);
  // The receipt is dated by the confirmation it stands for, not by its first download.
  doc.heading(`Recibo de pago N.º ${number}`, `Emitido el ${formatDate(data.confirmedAt)}`);

  doc.down(40);
  client(doc, data);

  doc.down(34);
  doc.section("Solicitud");
  const title = wrap(`N.º ${data.requestId} · ${data.requestTitle}`, doc.regular, 11, 495);
  for (const line of title.slice(0, 3)) {
    doc.down(16);
    doc.text(line);
  }
  doc.down(16);
  doc.text(`Cotización oficial N.º ${data.requestId} · versión ${data.officialQuoteVersion}`, {
    color: MUTED,
  });

  doc.down(40);
  doc.section("Pago");
  doc.rows([
    ["Importe pagado", formatMoney(data.amountCents, data.currency)],
    ["Moneda", data.currency],
    ["Método de pago", data.method ? PAYMENT_METHOD_LABELS[data.method] : "No indicado"],
    ["Comprobante enviado", formatDateTime(data.submittedAt)],
    ["Pago confirmado", formatDateTime(data.confirmedAt)],
    ["Puntos de lealtad ganados", formatNumber(data.loyaltyPoints)],
    ["Confirmado por", "Equipo de administración de CotizaHub"],
  ]);

  doc.down(50);
  doc.notes([
    "Este recibo acredita que CotizaHub recibió y validó el pago de la cotización oficial indicada.",
    "CotizaHub facilita la operación entre comprador y proveedor y no es parte del contrato de compraventa.",
    "Para cualquier aclaración sobre este pago, contacta al administrador desde la plataforma.",
  ]);
  return doc.save();
}
