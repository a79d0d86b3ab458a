import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { requireRole } from "~/models/auth.server";

/** The admin area: every child loader and action also guards itself (loaders run in parallel). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return null;
}

export default function AdminArea() {
  return (
    <AppShell role="admin">
      <Outlet />
    </AppShell>
  );
}
