import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireRole } from "~/models/auth.server";
import { paths } from "~/utils/paths";

/** SPEC §2: the partner's profile is the shared profile screen. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "partner");
  return redirect(paths.profile());
}
