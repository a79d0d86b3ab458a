import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ProductForm } from "~/components/admin/ProductForm";
import { packOptions, unpackOptions } from "~/domain/admin-lists";
import { listCategoryOptions } from "~/models/category.server";
import { listPartnerOptions } from "~/models/partner-admin.server";
import { getProductForAdmin, productDefaults, updateProduct } from "~/models/product.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { handleProductForm } from "~/services/product-form.server";
import { redirectWithToast } from "~/utils/toast-redirect.server";
import { idFrom } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Editar producto · Administración · CotizaHub" }];

const notFound = () => new Response("Producto no encontrado", { status: 404 });

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
    imageUrl: product?.image_key ? `/files/products/${id}` : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  if (!id) throw notFound();
  const { response } = await handleProductForm(request, async (value, image) => {
    const result = await updateProduct(db, id, value, { image, removeImage: value.removeImage });
    if (!result.ok && result.notFound) throw notFound();
    return result;
  });
  if (response) return response;
  return redirectWithToast("/admin/products", {
    type: "success",
    title: "Éxito",
    description: "Producto actualizado",
  });
}

export default function EditProduct() {
  const { id, defaults, categories, suppliers, imageUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="max-w-3xl">
      <Link to="/admin/products" className="btn-link text-sm">
        ← Volver a productos
      </Link>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title">Editar producto</h1>
        <Link to={`/admin/products/${id}/delete`} className="btn-danger">
          Eliminar
        </Link>
      </div>
      <ProductForm
        lastResult={actionData?.result}
        defaults={defaults}
        categories={categories}
        suppliers={unpackOptions(suppliers)}
        submitLabel="Guardar cambios"
        imageUrl={imageUrl}
      />
    </div>
  );
}
