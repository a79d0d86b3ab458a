import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/AppShell";
import { Section } from "~/components/ui/Section";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { requireUser } from "~/models/auth.server";
import { getSystemStatus, type Failure } from "~/models/system.server";
import { db } from "~/services/db.server";
import { notFound } from "~/services/respond.server";
import { formatDateTime, formatNumber } from "~/utils/format";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Sistema · Administración · CotizaHub",
    "Base de datos, copias, réplica, colas de correo y trabajos, disco y versión.",
  );

/**
 * Outside the admin layout (`admin_`) so that anyone but an operator gets the not-found page, not
 * the layout's redirect home: the page names paths and sizes of the installation.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role !== "admin") throw notFound();
  return { status: await getSystemStatus(db) };
}

function bytes(value: number): string {
  if (value < 1024 * 1024) return `${formatNumber(value / 1024, 1)} KB`;
  if (value < 1024 ** 3) return `${formatNumber(value / 1024 ** 2, 1)} MB`;
  return `${formatNumber(value / 1024 ** 3, 1)} GB`;
}

function Failures({ items, empty }: { items: Failure[]; empty: string }) {
  if (items.length === 0) return <p className="mt-2 text-sm text-slate-700">{empty}</p>;
  return (
    <ul className="mt-2 space-y-2 text-sm">
      {items.map((item, index) => (
        <li key={index} className="wrap-anywhere rounded-md bg-slate-50 p-2">
          <span className="font-medium text-slate-900">{item.what}</span>{" "}
          <span className="text-slate-600">({formatDateTime(item.at)})</span>
          <span className="block text-slate-700">{item.error}</span>
        </li>
      ))}
    </ul>
  );
}

export default function AdminSystem() {
  const { status: s } = useLoaderData<typeof loader>();
  return (
    <AppShell role="admin">
      <h1 className="page-title">Sistema</h1>
      <p className="mt-1 text-slate-700">Versión {s.version}</p>

      {s.warnings.length > 0 ? (
        <div
          role="alert"
          className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        >
          <p className="font-semibold">Atención</p>
          <ul className="mt-1 list-disc pl-5">
            {s.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <section aria-labelledby="resumen-sistema" className="mt-6">
        <h2 id="resumen-sistema" className="sr-only">
          Resumen
        </h2>
        <StatGrid>
          <StatCard
            label="Base de datos"
            value={bytes(s.database.bytes)}
            hint={`WAL: ${bytes(s.database.walBytes)}`}
          />
          <StatCard
            label="Disco libre"
            value={s.disk ? bytes(s.disk.freeBytes) : "—"}
            hint={s.disk ? `de ${bytes(s.disk.totalBytes)} (carpeta de archivos)` : undefined}
          />
          <StatCard
            label="Correo en cola"
            value={formatNumber(s.mail.waiting)}
            hint={`${formatNumber(s.mail.failed)} sin poder enviarse`}
          />
          <StatCard
            label="Trabajos pendientes"
            value={formatNumber(s.jobs.waiting)}
            hint={`${formatNumber(s.jobs.failed)} fallidos`}
          />
        </StatGrid>
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Section id="copias" title="Copias de los datos">
          <dl className="mt-2 space-y-2 text-sm">
            <div>
              <dt className="font-medium text-slate-900">Réplica continua (Litestream)</dt>
              <dd className="wrap-anywhere text-slate-700">
                {!s.replication.target
                  ? "Desactivada (LITESTREAM_REPLICA_URL sin definir)."
                  : s.replication.lastAt
                    ? `Última escritura en ${s.replication.target}: ${formatDateTime(s.replication.lastAt)}`
                    : `${s.replication.target}: ${s.replication.problem ?? "sin datos"}`}
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-900">Última copia de seguridad completa</dt>
              <dd className="wrap-anywhere text-slate-700">
                {s.lastBackup
                  ? `${formatDateTime(s.lastBackup.at)}: ${s.lastBackup.archive}` +
                    (s.lastBackup.bytes !== null ? ` (${bytes(s.lastBackup.bytes)}` : " (") +
                    `, ${formatNumber(s.lastBackup.files ?? 0)} archivos)`
                  : "Nunca."}
              </dd>
            </div>
            {s.lastBackupFailure ? (
              <div>
                <dt className="font-medium text-slate-900">Última copia fallida</dt>
                <dd className="wrap-anywhere text-slate-700">
                  {formatDateTime(s.lastBackupFailure.at)}: {s.lastBackupFailure.error}
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="font-medium text-slate-900">Base de datos</dt>
              <dd className="wrap-anywhere text-slate-700">
                {s.database.path}
                {s.database.changedAt
                  ? ` (último cambio: ${formatDateTime(s.database.changedAt)})`
                  : ""}
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-900">Archivos subidos</dt>
              <dd className="wrap-anywhere text-slate-700">
                {s.storage.backend === "s3" ? "Bucket S3" : "Carpeta local"}: {s.storage.where}
              </dd>
            </div>
          </dl>
        </Section>

        <Section id="fallos" title="Últimos fallos">
          <h3 className="mt-2 text-sm font-semibold text-slate-900">Correo</h3>
          <Failures items={s.mail.lastFailures} empty="Ningún correo con errores." />
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Trabajos programados</h3>
          <Failures items={s.jobs.lastFailures} empty="Ningún trabajo con errores." />
        </Section>
      </div>
    </AppShell>
  );
}
