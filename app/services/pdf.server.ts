import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatMoney } from "~/domain/money";
import { PAYMENT_METHOD_LABELS, receiptNumber } from "~/domain/payments";
import type { PaymentMethod } from "../../db/schema";
import { formatDate, formatDateTime, formatNumber } from "~/utils/format";

interface OfficialQuotePdfData {
  officialQuoteId: number;
  requestId: number;
  requestTitle: string;
  requestDescription: string | null;
  buyerName: string;
  buyerCompany: string | null;
  buyerEmail: string;
  finalAmountCents: number;
  commissionPercentage: number;
  commissionAmountCents: number;
  currency: string;
  validUntil: string;
  issuedAt: string;
}

interface PaymentReceiptPdfData {
  paymentId: number;
  requestId: number;
  requestTitle: string;
  officialQuoteId: number;
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

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = candidate;
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

/**
 * One A4 page in the platform's letterhead (the brand band with "CotizaHub"), written top-down:
 * every document of the platform (official quote, payment receipt) is laid out with these pieces
 * so they look like one family.
 */
async function letterhead(title: string) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(title));
  pdf.setAuthor("CotizaHub");
  pdf.setLanguage("es-ES");
  const page: PDFPage = pdf.addPage(A4);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
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

  page.drawRectangle({ x: 0, y: 770, width: A4[0], height: 72, color: BRAND });
  y = 800;
  text("CotizaHub", { size: 24, font: bold, color: WHITE });
  text("Marketplace de cotizaciones B2B", { x: 360, size: 10, color: WHITE });
  y = 735;

  return {
    regular,
    text,
    /** Moves the pen `by` points down the page. */
    down(by: number) {
      y -= by;
    },
    /** The document's title and the line under it. */
    heading(value: string, subtitle: string) {
      text(value, { size: 18, font: bold });
      y -= 20;
      text(subtitle, { color: MUTED });
    },
    section(value: string) {
      text(value, { font: bold, size: 12, color: BRAND });
    },
    /** Label on the left, value in bold on the right, a rule under each row. */
    rows(rows: [string, string][]) {
      for (const [label, value] of rows) {
        y -= 22;
        page.drawLine({
          start: { x: LEFT, y: y - 6 },
          end: { x: RIGHT, y: y - 6 },
          thickness: 0.5,
          color: RULE,
        });
        text(label);
        const width = bold.widthOfTextAtSize(winAnsi(value), 11);
        text(value, { x: RIGHT - width, font: bold });
      }
    },
    /** Small print at the foot of the content. */
    notes(lines: string[]) {
      for (const line of lines) {
        text(line, { size: 9, color: MUTED });
        y -= 13;
      }
    },
    save: () => pdf.save(),
  };
}

/** The official quote as a one-page Spanish PDF: platform, buyer, request, amounts and validity. */
export async function renderOfficialQuotePdf(data: OfficialQuotePdfData): Promise<Uint8Array> {
  const doc = await letterhead(`Cotización oficial #${data.officialQuoteId}`);
  doc.heading(
    `Cotización oficial N.º ${data.officialQuoteId}`,
    `Emitida el ${formatDate(data.issuedAt)} · Válida hasta el ${formatDate(data.validUntil)}`,
  );

  doc.down(40);
  doc.section("Cliente");
  for (const line of [
    data.buyerName,
    data.buyerCompany ?? "Empresa no especificada",
    data.buyerEmail,
  ]) {
    doc.down(16);
    doc.text(line);
  }

  doc.down(34);
  doc.section("Solicitud");
  doc.down(16);
  doc.text(`N.º ${data.requestId} · ${data.requestTitle}`.slice(0, 110));
  if (data.requestDescription) {
    for (const line of wrap(data.requestDescription, doc.regular, 10, 495).slice(0, 8)) {
      doc.down(14);
      doc.text(line, { size: 10, color: MUTED });
    }
  }

  doc.down(40);
  doc.section("Importe");
  doc.rows([
    ["Monto final", formatMoney(data.finalAmountCents, data.currency)],
    [
      `Comisión de la plataforma (${data.commissionPercentage.toFixed(2)} %)`,
      formatMoney(data.commissionAmountCents, data.currency),
    ],
    ["Moneda", data.currency],
  ]);

  doc.down(50);
  doc.notes([
    "El monto final incluye la comisión de la plataforma. CotizaHub facilita la operación entre comprador y",
    "proveedor y no es parte del contrato de compraventa. El pago se valida por nuestro equipo administrativo",
    "en un plazo de hasta 2 días hábiles. Esta cotización vence en la fecha indicada.",
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
  doc.section("Cliente");
  for (const line of [
    data.buyerName,
    data.buyerCompany ?? "Empresa no especificada",
    data.buyerEmail,
  ]) {
    doc.down(16);
    doc.text(line);
  }

  doc.down(34);
  doc.section("Solicitud");
  const title = wrap(`N.º ${data.requestId} · ${data.requestTitle}`, doc.regular, 11, 495);
  for (const line of title.slice(0, 3)) {
    doc.down(16);
    doc.text(line);
  }
  doc.down(16);
  doc.text(`Cotización oficial N.º ${data.officialQuoteId}`, { color: MUTED });

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
