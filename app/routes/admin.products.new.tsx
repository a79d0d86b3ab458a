import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EMPTY_PRODUCT, ProductFormPage } from "~/components/admin/ProductForm";
import { packOptions } from "~/domain/admin-lists";
import { listCategoryOptions } from "~/models/category.server";
import { listPartnerOptions } from "~/models/partner-admin.server";
import { createProduct } from "~/models/product.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { productAction } from "~/services/product-form.server";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Nuevo producto · Administración · CotizaHub",
    "Agrega un producto al catálogo con su categoría, proveedor, precio e imagen.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [categories, suppliers] = await Promise.all([
    listCategoryOptions(db),
    listPartnerOptions(db),
  ]);
  return { categories, suppliers: packOptions(suppliers) };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  return productAction(
    request,
    (value, image) => createProduct(db, value, image),
    "Producto creado",
  );
}

export default function NewProduct() {
  const { categories, suppliers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ProductFormPage
      heading={<h1 className="page-title mt-2">Nuevo producto</h1>}
      lastResult={actionData?.result}
      defaults={EMPTY_PRODUCT}
      categories={categories}
      suppliers={suppliers}
      submitLabel="Crear producto"
    />
  );
}
