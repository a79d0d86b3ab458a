import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { NOTIFICATIONS_PAGE_SIZE } from "~/domain/pagination";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { Badge, type BadgeTone } from "~/components/ui/Badge";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { isRole } from "~/domain/roles";
import {
  deleteNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  openNotification,
} from "~/models/notification.server";
import { requireUser } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { formatDateTime } from "~/utils/format";
import { safeRedirect } from "~/utils/safe-redirect";
import { idField } from "~/domain/validation";
import { readForm } from "~/services/form.server";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta("Notificaciones · CotizaHub", "Tus notificaciones de CotizaHub.");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = pageFromUrl(new URL(request.url));
  const { rows, total } = await listNotifications(db, user.id, page);
  return { role: isRole(user.role) ? user.role : "buyer", notifications: rows, total, page };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return z.object({
    intent: z.enum(["read", "read-all", "delete", "open"]).default("read"),
    id: idField("Notificación no encontrada.").optional(),
    back: z.string().optional(),
  });
}

/** Every notification action answers with a redirect: a bad or stale request changes nothing. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const back = safeRedirect(formData.get("back"), paths.notifications());
  const submission = parseWithZod(formData, { schema: schema() });
  if (submission.status !== "success") return redirect(back);
  const { intent, id } = submission.value;
  if (intent === "read-all") await markAllNotificationsRead(db, user.id);
  else if (id === undefined) return redirect(back);
  else if (intent === "delete") await deleteNotification(db, user.id, id);
  else if (intent === "open")
    return redirect(safeRedirect(await openNotification(db, user.id, id), back));
  else await markNotificationRead(db, user.id, id);
  return redirect(back);
}

const TONE: Record<string, BadgeTone> = {
  success: "green",
  info: "blue",
  warning: "yellow",
  error: "red",
};
const TYPE_LABEL: Record<string, string> = {
  success: "Éxito",
  info: "Información",
  warning: "Aviso",
  error: "Error",
};

export default function Notifications() {
  const { role, notifications, total, page } = useLoaderData<typeof loader>();
  const back = paths.notifications(page);
  return (
    <AppShell role={role}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title">Notificaciones</h1>
        {notifications.some((n) => !n.read_at) ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <input type="hidden" name="back" value={back} />
            <button type="submit" className="btn-secondary">
              Marcar todas como leídas
            </button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 && total > 0 ? null : notifications.length === 0 ? (
        <p className="card mt-6 text-center text-slate-700">No tienes notificaciones.</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {notifications.map((n) => (
            <li key={n.id} className={`card ${n.read_at ? "" : "border-l-4 border-l-brand-600"}`}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold">
                    {n.title}
                    <Badge tone={TONE[n.type]}>{TYPE_LABEL[n.type]}</Badge>
                    {n.read_at ? null : <Badge tone="blue">Nueva</Badge>}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">{n.message}</p>
                  <p className="mt-1 text-xs text-slate-600">{formatDateTime(n.created_at)}</p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {n.link ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="open" />
                      <input type="hidden" name="id" value={n.id} />
                      <button type="submit" className="btn-primary">
                        Ver
                      </button>
                    </Form>
                  ) : null}
                  {n.read_at ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="read" />
                      <input type="hidden" name="id" value={n.id} />
                      <input type="hidden" name="back" value={back} />
                      <button type="submit" className="btn-secondary">
                        Marcar como leída
                      </button>
                    </Form>
                  )}
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={n.id} />
                    <input type="hidden" name="back" value={back} />
                    <button
                      type="submit"
                      className="btn-secondary"
                      aria-label={`Eliminar notificación: ${n.title}`}
                    >
                      Eliminar
                    </button>
                  </Form>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={NOTIFICATIONS_PAGE_SIZE} total={total} />
    </AppShell>
  );
}
