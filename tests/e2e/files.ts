/** Small real files for uploads: content that passes (or fails) the magic-byte check. */
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
/** A Windows executable header: what a renamed `.exe` really is. */
export const EXE = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(510, 0x90)]);

export const pdfFile = (name = "requerimientos.pdf") => ({
  name,
  mimeType: "application/pdf",
  buffer: PDF,
});
export const pngFile = (name = "comprobante.png") => ({ name, mimeType: "image/png", buffer: PNG });
