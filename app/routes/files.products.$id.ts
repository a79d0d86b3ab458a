import type { LoaderFunctionArgs } from "@remix-run/node";
import { getProductImage } from "~/models/product.server";
import { getOptionalUser } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { fileResponse } from "~/services/storage.server";
import { idFrom } from "~/utils/ids";

const notFound = () =>
  new Response("Archivo no encontrado", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/**
 * A product image. Public for active products (the catalogue may show it); an inactive product's
 * image is only served to admins, who preview it in the back office.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = idFrom(params.id);
  if (!id) throw notFound();
  let image = await getProductImage(db, id, { includeInactive: false });
  if (!image) {
    const user = await getOptionalUser(request);
    if (user?.role === "admin") image = await getProductImage(db, id, { includeInactive: true });
  }
  if (!image?.key || !image.type) throw notFound();
  const ext = image.key.slice(image.key.lastIndexOf(".") + 1);
  return fileResponse(image.key, { name: `producto-${id}.${ext}`, type: image.type, inline: true });
}
