import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { requireRole } from "~/models/auth.server";

/** The buyer area: every child loader and action also guards itself (loaders run in parallel). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "buyer");
  return null;
}

export default function BuyerArea() {
  return (
    <AppShell role="buyer">
      <Outlet />
    </AppShell>
  );
}
