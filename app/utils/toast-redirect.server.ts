import { redirect } from "@remix-run/node";
import { toastCookie } from "~/services/session.server";
import type { Toast } from "./toast";

/** POST → redirect → GET with a flash toast for the next page. */
export async function redirectWithToast(to: string, toast: Toast): Promise<Response> {
  return redirect(to, { headers: { "Set-Cookie": await toastCookie(toast) } });
}

/** The page the request was made from (path and query), to go back to after an action. */
export function samePage(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  url.searchParams.delete("_data");
  return url.pathname + url.search;
}
