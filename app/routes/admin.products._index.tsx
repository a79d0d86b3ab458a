import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { SearchBar } from "~/components/admin/SearchBar";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { formatMoney } from "~/domain/money";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { listProductsForAdmin } from "~/models/product.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { searchFromUrl } from "~/utils/like";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Productos · Administración · CotizaHub",
    "Catálogo de productos que se muestra en la página de inicio.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const page = pageFromUrl(url);
  const [{ products, total }, settings] = await Promise.all([
    listProductsForAdmin(db, { q, page }),
    getSettings(db),
  ]);
  return { products, total, q, page, currency: settings.currency };
}

export default function AdminProducts() {
  const { products, total, q, page, currency } = useLoaderData<typeof loader>();
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title">Productos</h1>
        <div className="flex flex-wrap gap-2">
          <Link to={paths.admin.categories()} className="btn-secondary">
            Categorías
          </Link>
          <Link to={paths.admin.newProduct()} className="btn-primary">
            Nuevo producto
          </Link>
        </div>
      </div>
      <p className="mt-1 text-slate-700">
        Los productos activos aparecen en el catálogo de la página de inicio con su proveedor.
      </p>
      <SearchBar q={q} label="Buscar por nombre o SKU" />
      <p className="mt-4 text-sm text-slate-700">
        {total} {total === 1 ? "producto" : "productos"}
      </p>
      {products.length === 0 ? (
        <div className="mt-4">
          <EmptyState title={q ? "No se encontraron productos" : "Aún no hay productos"}>
            {q ? (
              "Prueba con otra búsqueda."
            ) : (
              <Link to={paths.admin.newProduct()} className="btn-link">
                Crea el primer producto
              </Link>
            )}
          </EmptyState>
        </div>
      ) : (
        <div
          className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white"
          tabIndex={0}
          role="region"
          aria-label="Tabla de productos"
        >
          <table className="table-stack min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Productos del catálogo</caption>
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Producto
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Categoría
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Proveedor
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Precio base
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Existencia
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Estado
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {products.map((p) => (
                <tr key={p.id} data-testid={`product-${p.id}`}>
                  <td data-label="Producto" className="px-4 py-3">
                    <p className="font-medium text-slate-900">{p.name}</p>
                    <p className="text-slate-600">
                      {p.sku ? `SKU ${p.sku}` : "Sin SKU"}
                      {p.has_image ? " · con imagen" : ""}
                    </p>
                  </td>
                  <td data-label="Categoría" className="px-4 py-3 text-slate-700">
                    {p.category_name ?? "—"}
                  </td>
                  <td data-label="Proveedor" className="px-4 py-3 text-slate-700">
                    {p.supplier_name ?? "—"}
                  </td>
                  <td data-label="Precio base" className="whitespace-nowrap px-4 py-3 text-right">
                    {p.base_price_cents === null
                      ? "A cotizar"
                      : formatMoney(p.base_price_cents, currency)}
                  </td>
                  <td data-label="Existencia" className="px-4 py-3 text-right">
                    {p.stock_quantity}
                  </td>
                  <td data-label="Estado" className="px-4 py-3">
                    {!p.is_active ? (
                      <Badge tone="gray">Inactivo</Badge>
                    ) : p.category_active === 0 ? (
                      // Active, yet off the catalogue with its category (listCatalogueProducts).
                      <>
                        <Badge tone="yellow">Oculto</Badge>
                        <p className="mt-1 text-xs text-slate-600">Su categoría está inactiva</p>
                      </>
                    ) : (
                      <Badge tone="green">Activo</Badge>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-4 py-3">
                    <RowLink to={paths.admin.product(p.id)} verb="Editar" product={p.name} />
                    <span aria-hidden="true" className="mx-2 text-slate-400">
                      ·
                    </span>
                    <RowLink
                      to={paths.admin.deleteProduct(p.id)}
                      verb="Eliminar"
                      product={p.name}
                      className="font-semibold text-red-700 underline-offset-2 hover:underline"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageSize={ADMIN_PAGE_SIZE} total={total} />
    </div>
  );
}

/** A row's link, named with its product for screen readers ("Editar Tornillo"). */
function RowLink({
  to,
  verb,
  product,
  className = "btn-link",
}: {
  to: string;
  verb: string;
  product: string;
  className?: string;
}) {
  return (
    <Link to={to} className={className} aria-label={`${verb} ${product}`}>
      {verb}
    </Link>
  );
}
