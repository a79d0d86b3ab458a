import type { ReactNode } from "react";
import type { Role } from "../../db/schema";
import { Sidebar } from "./Sidebar";

/** A signed-in page: the role's sidebar beside the content. */
export function AppShell({ role, children }: { role: Role; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-7xl flex-col lg:flex-row">
      <Sidebar role={role} />
      <div className="min-w-0 flex-1 px-4 py-6 sm:px-6">{children}</div>
    </div>
  );
}
