import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { stageBytes, type StagedFile } from "../app/services/storage.server";

/**
 * Small real documents for the demo story (a requirements sheet, an offer, a transfer receipt),
 * staged the way the upload reader hands a checked PDF to a route: a temp file under the uploads
 * folder, with the name the person "uploaded" and the content type found in its magic bytes.
 */
function wrap(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + word.length + 1 > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}

export async function stagedDemoPdf(
  fileName: string,
  heading: string,
  lines: string[],
): Promise<StagedFile> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(heading);
  pdf.setAuthor("Datos de demostración de CotizaHub");
  pdf.setLanguage("es-ES");
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 780;
  page.drawText(heading, { x: 50, y, size: 16, font: bold, color: rgb(0.12, 0.25, 0.69) });
  const text = [...lines, "", "Documento ficticio creado por los datos de demostración."];
  for (const line of text.flatMap((l) => wrap(l, 90))) {
    y -= 18;
    page.drawText(line, { x: 50, y, size: 11, font: regular });
  }
  const staged = await stageBytes(await pdf.save(), "pdf");
  return { ...staged, originalName: fileName, mime: "application/pdf" };
}
