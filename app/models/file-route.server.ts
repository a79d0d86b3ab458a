import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "./auth.server";
import { db, type DB } from "~/services/db.server";
import { verifySignedRequest } from "~/services/signed-url.server";
import { fileResponse } from "~/services/storage.server";

type SignedInUser = Awaited<ReturnType<typeof requireUser>>;

/** What an access rule (models/file-access) hands back for a file the user may download. */
interface DownloadableFile {
  key: string;
  name: string;
  type: string;
}

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
  find: (database: DB, user: SignedInUser, id: number) => Promise<DownloadableFile | undefined>,
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
