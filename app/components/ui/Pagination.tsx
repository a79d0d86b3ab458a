import { useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { formatNumber } from "~/utils/format";

/**
 * A page number past the end (typed, or the list shrank since the link was made): says so and
 * leads back, rather than "Página 3 de 2" under an empty list.
 */
export function PageMissing({
  page,
  pages,
  firstHref,
}: {
  page: number;
  pages: number;
  firstHref: string;
}) {
  return (
    <p role="status" className="mt-6 text-sm text-slate-700">
      La página {formatNumber(page)} no existe: la lista tiene{" "}
      {pages === 1 ? "una sola página" : `${formatNumber(pages)} páginas`}.{" "}
      <Link to={firstHref} className="btn-link">
        Ir a la primera página
      </Link>
    </p>
  );
}

/** Server-side pagination links that keep the other query parameters (search, filters). */
export function Pagination({
  page,
  pageSize,
  total,
}: {
  page: number;
  pageSize: number;
  total: number;
}) {
  const { pathname, search } = useLocation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    if (target === 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  if (page > pages && total > 0)
    return <PageMissing page={page} pages={pages} firstHref={hrefFor(1)} />;
  if (pages <= 1) return null;
  return (
    <nav aria-label="Paginación" className="mt-6 flex items-center justify-between gap-2 text-sm">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="btn-secondary" rel="prev">
          ← Anterior
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-700">
        Página {page} de {pages}
      </span>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} className="btn-secondary" rel="next">
          Siguiente →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** Reads ?page= as a positive integer (anything else is page 1). */
export function pageFromUrl(url: URL): number {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page > 0 && page < 1_000_000 ? page : 1;
}
