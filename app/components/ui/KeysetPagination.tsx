import { useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { NUMBERED_PAGES, type PageInfo } from "~/utils/keyset";
import { formatNumber } from "~/utils/format";
import { PageMissing } from "./Pagination";

/**
 * Links for a keyset-paginated list: previous / next as `?before=` / `?after=` and the first pages
 * by number, keeping the other query parameters (search, filters). Plain links: no JavaScript.
 */
export function KeysetPagination({
  pageInfo,
  pageSize,
  total,
}: {
  pageInfo: PageInfo;
  pageSize: number;
  /** Rows in the whole list when known cheaply, else null. */
  total: number | null;
}) {
  const { pathname, search } = useLocation();
  const pages = total === null ? null : Math.max(1, Math.ceil(total / pageSize));
  if (pageInfo.page === 1 && !pageInfo.next) return null;
  const hrefWith = (name: "after" | "before" | "page" | null, value = "") => {
    const params = new URLSearchParams(search);
    for (const key of ["after", "before", "page"]) params.delete(key);
    if (name && !(name === "page" && value === "1")) params.set(name, value);
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  if (pages !== null && pageInfo.page > pages) {
    // `?page=` past NUMBERED_PAGES is read as the last numbered page; name the one asked for.
    const asked = Number(new URLSearchParams(search).get("page"));
    const missing = Number.isInteger(asked) && asked > pageInfo.page ? asked : pageInfo.page;
    return <PageMissing page={missing} pages={pages} firstHref={hrefWith(null)} />;
  }
  const numbered = Array.from(
    { length: Math.min(NUMBERED_PAGES, pages ?? NUMBERED_PAGES) },
    (_, i) => i + 1,
  );
  return (
    <nav
      aria-label="Paginación"
      className="mt-6 flex flex-wrap items-center justify-between gap-2 text-sm"
    >
      {pageInfo.prev ? (
        <Link to={hrefWith("before", pageInfo.prev)} className="btn-secondary" rel="prev">
          ← Anterior
        </Link>
      ) : (
        <span />
      )}
      <span className="flex flex-wrap items-center gap-1 text-slate-700">
        {numbered.map((n) =>
          n === pageInfo.page ? (
            <span key={n} aria-current="page" className="rounded px-2 py-1 font-semibold">
              {n}
            </span>
          ) : (
            <Link
              key={n}
              to={hrefWith("page", String(n))}
              className="rounded px-2 py-1 text-brand-700 hover:underline"
              aria-label={`Página ${n}`}
            >
              {n}
            </Link>
          ),
        )}
        <span className="ml-2">
          Página {formatNumber(pageInfo.page)}
          {pages === null ? "" : ` de ${formatNumber(pages)}`}
        </span>
      </span>
      {pageInfo.next ? (
        <Link to={hrefWith("after", pageInfo.next)} className="btn-secondary" rel="next">
          Siguiente →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
