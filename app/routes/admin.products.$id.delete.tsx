import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { deleteProduct, getProductForAdmin } from "~/models/product.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { deleteStoredFile } from "~/services/storage.server";
import { redirectWithToast } from "~/utils/toast-redirect.server";
import { idFrom } from "~/utils/ids";

export const meta: MetaFunction = () => [
  { title: "Eliminar producto · Administración · CotizaHub" },
];

const notFound = () => new Response("Producto no encontrado", { status: 404 });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  const product = id ? await getProductForAdmin(db, id) : undefined;
  if (!product) throw notFound();
  return { product: { id: product.id, name: product.name, sku: product.sku } };
}

/** A confirmation page (not a script dialog), so deleting works without JavaScript. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  const deleted = id ? await deleteProduct(db, id) : null;
  if (!deleted) {
    return redirectWithToast("/admin/products", {
      type: "error",
      title: "Error",
      description: "No se pudo eliminar el producto",
    });
  }
  // The row is gone first, so no product ever points to a missing image.
  await deleteStoredFile(deleted.imageKey);
  return redirectWithToast("/admin/products", {
    type: "success",
    title: "Éxito",
    description: "Producto eliminado",
  });
}

export default function DeleteProduct() {
  const { product } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-xl">
      <h1 className="page-title">Eliminar producto</h1>
      <div className="card mt-6">
        <p className="text-lg font-semibold text-slate-900">
          ¿Estás seguro de que quieres eliminar este producto?
        </p>
        <p className="mt-2 text-slate-700">
          <span className="font-medium">{product.name}</span>
          {product.sku ? ` (SKU ${product.sku})` : null} dejará de aparecer en el catálogo. Esta
          acción no se puede deshacer.
        </p>
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <button type="submit" className="btn-danger">
            Sí, eliminar producto
          </button>
          <Link to={`/admin/products/${product.id}`} className="btn-secondary">
            Cancelar
          </Link>
        </Form>
      </div>
    </div>
  );
}
