import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { endSession } from "~/services/session.server";
import { paths } from "~/utils/paths";

/** Sign-out is a POST only; a GET changes nothing and goes home. */
export function loader() {
  return redirect(paths.home());
}

export async function action({ request }: ActionFunctionArgs) {
  // No fields, but the body is read (and capped) like every other form's.
  await readForm(request);
  return redirect(paths.home(), { headers: { "Set-Cookie": await endSession(db, request) } });
}
