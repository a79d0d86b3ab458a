import { Link } from "~/components/ui/Link";
import { formatMoney } from "~/domain/money";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";
import { paths } from "~/utils/paths";
import { countOf } from "~/utils/format";

interface CatalogueCategoryView {
  id: number;
  name: string;
}

interface CatalogueProductView {
  id: number;
  name: string;
  description: string | null;
  basePriceCents: number | null;
  categoryName: string | null;
  supplierName: string | null;
  hasImage: boolean;
}

const chipBase = "inline-flex rounded-full border px-4 py-1.5 text-sm font-semibold";
const chipIdle = `${chipBase} border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:text-brand-800`;
const chipActive = `${chipBase} border-brand-700 bg-brand-700 text-white`;

/**
 * The public catalogue. Category chips are plain links (`/?categoria=ID#catalogo`) filtered by the
 * loader, so they work without JavaScript.
 */
export function CatalogueSection({
  categories,
  products,
  selectedCategoryId,
  currency,
}: {
  categories: CatalogueCategoryView[];
  products: CatalogueProductView[];
  selectedCategoryId: number | null;
  currency: string;
}) {
  const selected = categories.find((c) => c.id === selectedCategoryId) ?? null;
  return (
    <section id="catalogo" aria-labelledby="catalogo-titulo" className="scroll-mt-20 bg-white">
      <div className="mx-auto max-w-7xl px-4 py-16">
        <SectionHeading
          id="catalogo-titulo"
          eyebrow="Catálogo"
          title="Productos de nuestros socios"
        >
          Explora una muestra de lo que puedes cotizar hoy mismo.
        </SectionHeading>
        {categories.length > 0 ? (
          <nav aria-label="Filtrar por categoría" className="mt-8">
            <ul className="flex flex-wrap justify-center gap-2">
              <li>
                <Link
                  to={paths.catalogue()}
                  preventScrollReset
                  className={selected ? chipIdle : chipActive}
                  aria-current={selected ? undefined : "page"}
                >
                  Todas
                </Link>
              </li>
              {categories.map((category) => {
                const active = category.id === selected?.id;
                return (
                  <li key={category.id}>
                    <Link
                      to={paths.catalogue(category.id)}
                      preventScrollReset
                      className={active ? chipActive : chipIdle}
                      aria-current={active ? "page" : undefined}
                    >
                      {category.name}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        ) : null}
        <p className="sr-only" role="status">
          {selected
            ? `${countOf(products.length, "producto", "productos")} en la categoría ${selected.name}`
            : `${countOf(products.length, "producto destacado", "productos destacados")}`}
        </p>
        {products.length > 0 ? (
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {products.map((product) => (
              <li
                key={product.id}
                className="flex flex-col rounded-lg border border-slate-200 bg-slate-50 p-4"
                data-testid="catalogue-product"
              >
                {product.hasImage ? (
                  <img
                    src={paths.files.productImage(product.id)}
                    alt=""
                    loading="lazy"
                    className="mb-3 h-28 w-full rounded-md bg-white object-contain"
                  />
                ) : (
                  <div className="mb-3 hidden h-28 items-center justify-center rounded-md bg-brand-50 text-brand-700 sm:flex">
                    <Icon name="box" className="h-12 w-12" />
                  </div>
                )}
                {product.categoryName ? (
                  <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">
                    {product.categoryName}
                  </p>
                ) : null}
                <h3 className="mt-1 font-semibold text-slate-900">{product.name}</h3>
                {product.description ? (
                  <p className="mt-1 line-clamp-3 text-sm text-slate-700">{product.description}</p>
                ) : null}
                <div className="mt-auto pt-4">
                  <p className="text-sm text-slate-800">
                    {product.basePriceCents !== null ? (
                      <>
                        Desde{" "}
                        <span className="font-bold">
                          {formatMoney(product.basePriceCents, currency)}
                        </span>
                      </>
                    ) : (
                      <span className="font-semibold">Precio a cotizar</span>
                    )}
                  </p>
                  <p className="mt-3 inline-flex max-w-full items-center gap-1.5 rounded-full bg-white px-2.5 py-1 text-xs font-semibold text-slate-800 ring-1 ring-inset ring-slate-300">
                    <Icon name="shield" className="h-3.5 w-3.5 shrink-0 text-green-700" />
                    <span className="sr-only">Proveedor: </span>
                    <span className="truncate" data-testid="supplier-badge">
                      {product.supplierName ?? "CotizaHub"}
                    </span>
                  </p>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <div className="mx-auto mt-8 max-w-lg rounded-lg border border-dashed border-slate-300 p-8 text-center">
            <p className="font-semibold text-slate-800">
              {selected
                ? "Aún no hay productos en esta categoría."
                : "Muy pronto publicaremos nuestro catálogo."}
            </p>
            <p className="mt-1 text-sm text-slate-700">
              Mientras tanto, puedes solicitar una cotización de lo que necesites.
            </p>
          </div>
        )}
        <p className="mt-10 text-center text-slate-700">
          ¿No encuentras lo que buscas?{" "}
          <Link to={paths.signUp()} className="btn-link">
            Solicita una cotización personalizada
          </Link>
        </p>
      </div>
    </section>
  );
}
