import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatMoney } from "~/domain/money";
import { formatDate } from "~/utils/format";

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

/** The official quote as a one-page Spanish PDF: platform, buyer, request, amounts and validity. */
export async function renderOfficialQuotePdf(data: OfficialQuotePdfData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(`Cotización oficial #${data.officialQuoteId}`));
  pdf.setAuthor("CotizaHub");
  pdf.setLanguage("es-ES");
  const page: PDFPage = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const brand = rgb(0.118, 0.251, 0.686);
  const muted = rgb(0.28, 0.33, 0.41);
  let y = 790;
  const text = (
    value: string,
    opts: { x?: number; size?: number; font?: PDFFont; color?: ReturnType<typeof rgb> } = {},
  ) => {
    page.drawText(winAnsi(value), {
      x: opts.x ?? 50,
      y,
      size: opts.size ?? 11,
      font: opts.font ?? regular,
      color: opts.color ?? rgb(0.06, 0.09, 0.16),
    });
  };

  page.drawRectangle({ x: 0, y: 770, width: 595.28, height: 72, color: brand });
  y = 800;
  text("CotizaHub", { size: 24, font: bold, color: rgb(1, 1, 1) });
  text("Marketplace de cotizaciones B2B", { x: 360, size: 10, color: rgb(1, 1, 1) });
  y = 735;
  text(`Cotización oficial N.º ${data.officialQuoteId}`, { size: 18, font: bold });
  y -= 20;
  text(`Emitida el ${formatDate(data.issuedAt)} · Válida hasta el ${formatDate(data.validUntil)}`, {
    color: muted,
  });

  y -= 40;
  text("Cliente", { font: bold, size: 12, color: brand });
  for (const line of [
    data.buyerName,
    data.buyerCompany ?? "Empresa no especificada",
    data.buyerEmail,
  ]) {
    y -= 16;
    text(line);
  }

  y -= 34;
  text("Solicitud", { font: bold, size: 12, color: brand });
  y -= 16;
  text(`N.º ${data.requestId} · ${data.requestTitle}`.slice(0, 110));
  if (data.requestDescription) {
    for (const line of wrap(data.requestDescription, regular, 10, 495).slice(0, 8)) {
      y -= 14;
      text(line, { size: 10, color: muted });
    }
  }

  y -= 40;
  text("Importe", { font: bold, size: 12, color: brand });
  const rows: [string, string][] = [
    ["Monto final", formatMoney(data.finalAmountCents, data.currency)],
    [
      `Comisión de la plataforma (${data.commissionPercentage.toFixed(2)} %)`,
      formatMoney(data.commissionAmountCents, data.currency),
    ],
    ["Moneda", data.currency],
  ];
  for (const [label, value] of rows) {
    y -= 22;
    page.drawLine({
      start: { x: 50, y: y - 6 },
      end: { x: 545, y: y - 6 },
      thickness: 0.5,
      color: rgb(0.85, 0.87, 0.9),
    });
    text(label);
    const width = bold.widthOfTextAtSize(winAnsi(value), 11);
    text(value, { x: 545 - width, font: bold });
  }

  y -= 50;
  const terms = [
    "El monto final incluye la comisión de la plataforma. CotizaHub facilita la operación entre comprador y",
    "proveedor y no es parte del contrato de compraventa. El pago se valida por nuestro equipo administrativo",
    "en un plazo de hasta 2 días hábiles. Esta cotización vence en la fecha indicada.",
  ];
  for (const line of terms) {
    text(line, { size: 9, color: muted });
    y -= 13;
  }
  return pdf.save();
}
