/** The request's requirements file with its signed download and open links. */
export function RequirementsFile({
  fileName,
  links,
}: {
  fileName: string;
  links: { download: string; open: string };
}) {
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 rounded-md bg-slate-50 p-3 text-sm">
      <span className="font-medium">Archivo: {fileName}</span>
      <a href={links.download} className="btn-secondary" download>
        Descargar<span className="sr-only"> el archivo de requerimientos</span>
      </a>
      <a href={links.open} className="btn-secondary" target="_blank" rel="noreferrer">
        Abrir<span className="sr-only"> el archivo de requerimientos</span>
      </a>
    </div>
  );
}
