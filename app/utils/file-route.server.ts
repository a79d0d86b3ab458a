import type { LoaderFunctionArgs } from "@remix-run/node";
import type { StoredFileRef } from "~/models/file-access.server";
import type { PublicUser } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { db, type DB } from "~/services/db.server";
import { verifySignedRequest } from "~/services/signed-url.server";
import { fileResponse } from "~/services/storage.server";

const notFound = () =>
  new Response("Archivo no encontrado", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/**
 * A file download: signed in, a valid signed link for this user, and the access rule says yes.
 * Anything else is a 404 (we do not confirm that a file exists).
 */
export function fileLoader(
  find: (database: DB, user: PublicUser, id: number) => Promise<StoredFileRef | undefined>,
) {
  return async ({ request, params }: LoaderFunctionArgs) => {
    const user = await requireUser(request);
    const id = Number(params.id);
    if (!Number.isInteger(id) || id <= 0 || !(await verifySignedRequest(request, user.id)))
      throw notFound();
    const file = await find(db, user, id);
    if (!file) throw notFound();
    return fileResponse(file.key, {
      ...file,
      inline: new URL(request.url).searchParams.get("inline") === "1",
    });
  };
}
