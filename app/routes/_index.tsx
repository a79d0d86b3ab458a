import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CatalogueSection } from "~/components/landing/CatalogueSection";
import { FeaturedPartners } from "~/components/landing/FeaturedPartners";
import { FinalCta } from "~/components/landing/FinalCta";
import { Hero } from "~/components/landing/Hero";
import {
  Benefits,
  HowItWorks,
  SectorsStrip,
  Stats,
  Values,
} from "~/components/landing/MarketingSections";
import {
  listActiveCategories,
  listCatalogueProducts,
  listLandingPartners,
} from "~/models/catalogue.server";
import { displayName } from "~/models/user.server";
import { redirectIfSignedIn } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "CotizaHub · Cotizaciones B2B en 24-48 horas",
    "Marketplace de cotizaciones B2B: sube tus requerimientos y recibe cotizaciones de socios verificados en 24-48 horas.",
  );

/** `?categoria=` as a positive integer id, or null (anything else shows every category). */
function categoryFromUrl(url: URL): number | null {
  const id = Number(url.searchParams.get("categoria"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  const requested = categoryFromUrl(new URL(request.url));
  const categories = await listActiveCategories(db);
  // An unknown or switched-off category falls back to the whole catalogue.
  const selectedCategoryId = categories.some((c) => c.id === requested) ? requested : null;
  const [products, partners, settings] = await Promise.all([
    listCatalogueProducts(db, { categoryId: selectedCategoryId, limit: 8 }),
    listLandingPartners(db, 5),
    getSettings(db),
  ]);
  return {
    categories,
    selectedCategoryId,
    currency: settings.currency,
    products: products.map(
      ({ id, name, description, basePriceCents, categoryName, supplierName, hasImage }) => ({
        hasImage,
        id,
        name,
        description,
        basePriceCents,
        categoryName,
        supplierName,
      }),
    ),
    partners: partners.map((p) => ({ id: p.id, name: p.company_name?.trim() || displayName(p) })),
  };
}

export default function Landing() {
  const { categories, selectedCategoryId, currency, products, partners } =
    useLoaderData<typeof loader>();
  return (
    <>
      <Hero />
      <SectorsStrip />
      <Stats />
      <Values />
      <Benefits />
      <HowItWorks />
      <CatalogueSection
        categories={categories}
        products={products}
        selectedCategoryId={selectedCategoryId}
        currency={currency}
      />
      <FeaturedPartners partners={partners} />
      <FinalCta />
    </>
  );
}
