import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { ProductFormPage } from "~/components/admin/ProductForm";
import { packOptions } from "~/domain/admin-lists";
import { listCategoryOptions } from "~/models/category.server";
import { listPartnerOptions } from "~/models/partner-admin.server";
import { getProductForAdmin, updateProduct } from "~/models/product.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { productDefaults } from "~/models/product.server";
import { productAction } from "~/services/product-form.server";
import { notFound } from "~/services/respond.server";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Editar producto · Administración · CotizaHub",
    "Edita nombre, categoría, proveedor, precio e imagen de un producto del catálogo.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  const defaults = id ? await productDefaults(id) : null;
  if (!id || !defaults) throw notFound();
  const [categories, suppliers, product] = await Promise.all([
    listCategoryOptions(db),
    listPartnerOptions(db),
    getProductForAdmin(db, id),
  ]);
  return {
    id,
    defaults,
    categories,
    suppliers: packOptions(suppliers),
    imageUrl: product?.image_key ? paths.files.productImage(id) : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  if (!id) throw notFound();
  return productAction(
    request,
    (value, image) => updateProduct(db, id, value, { image, removeImage: value.removeImage }),
    "Producto actualizado",
  );
}

export default function EditProduct() {
  const { id, defaults, categories, suppliers, imageUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ProductFormPage
      heading={
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="page-title">Editar producto</h1>
          <Link to={paths.admin.deleteProduct(id)} className="btn-danger">
            Eliminar
          </Link>
        </div>
      }
      lastResult={actionData?.result}
      defaults={defaults}
      categories={categories}
      suppliers={suppliers}
      submitLabel="Guardar cambios"
      imageUrl={imageUrl}
    />
  );
}
