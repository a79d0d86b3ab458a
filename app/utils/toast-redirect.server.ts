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

/** A positive integer id from a form or route value, or null. */
export function idFrom(value: unknown): number | null {
  const id = Number(value);
  return typeof value === "string" && Number.isSafeInteger(id) && id > 0 ? id : null;
}
