import fs from "node:fs/promises";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { sql } from "kysely";
import type { DB } from "~/services/db.server";
import { env } from "~/services/env.server";
import { storage } from "~/services/storage.server";
import { APP_VERSION } from "~/services/version.server";

/**
 * What an operator checks on /admin/system: the database's size, when the data last left the
 * machine (a whole backup or Litestream's replica), the mail and job queues with their last
 * failures, free disk for uploads and the running version.
 */

/** A copy older than this, with changes made since, is shown as a warning. */
export const STALE_COPY_MS = 60 * 60 * 1000;

export interface Failure {
  what: string;
  error: string;
  at: string;
}

export interface Replication {
  /** The replica's address without credentials, or null when replication is off. */
  target: string | null;
  /** The newest replica file's time, when the replica could be read. */
  lastAt: string | null;
  /** Why the replica could not be read. */
  problem: string | null;
}

export interface SystemStatus {
  version: string;
  database: { path: string; bytes: number; walBytes: number; changedAt: string | null };
  storage: { backend: "local" | "s3"; where: string };
  disk: { freeBytes: number; totalBytes: number } | null;
  lastBackup: { at: string; archive: string; bytes: number | null; files: number | null } | null;
  lastBackupFailure: Failure | null;
  replication: Replication;
  mail: { waiting: number; failed: number; lastFailures: Failure[] };
  jobs: { waiting: number; failed: number; lastFailures: Failure[] };
  warnings: string[];
}

async function fileInfo(file: string): Promise<{ bytes: number; changedMs: number } | null> {
  const stat = await fs.stat(file).catch(() => null);
  return stat ? { bytes: stat.size, changedMs: stat.mtimeMs } : null;
}

async function newestIn(dir: string): Promise<number | null> {
  let newest: number | null = null;
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await fileInfo(path.join(entry.parentPath, entry.name));
    if (info && (newest === null || info.changedMs > newest)) newest = info.changedMs;
  }
  return newest;
}

async function newestInBucket(url: URL): Promise<number | null> {
  const client = new S3Client({
    region: process.env.LITESTREAM_REGION || "auto",
    endpoint: process.env.LITESTREAM_ENDPOINT || undefined,
    forcePathStyle: Boolean(process.env.LITESTREAM_ENDPOINT),
    credentials:
      process.env.LITESTREAM_ACCESS_KEY_ID && process.env.LITESTREAM_SECRET_ACCESS_KEY
        ? {
            accessKeyId: process.env.LITESTREAM_ACCESS_KEY_ID,
            secretAccessKey: process.env.LITESTREAM_SECRET_ACCESS_KEY,
          }
        : undefined,
  });
  let newest: number | null = null;
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: url.hostname,
        Prefix: url.pathname.replace(/^\//, ""),
        ContinuationToken,
      }),
      { abortSignal: AbortSignal.timeout(3000) },
    );
    for (const object of page.Contents ?? []) {
      const at = object.LastModified?.getTime() ?? null;
      if (at !== null && (newest === null || at > newest)) newest = at;
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return newest;
}

/** When Litestream last wrote to its replica (a local folder or an S3 bucket). */
export async function readReplication(
  replicaUrl = env.LITESTREAM_REPLICA_URL,
): Promise<Replication> {
  if (!replicaUrl) return { target: null, lastAt: null, problem: null };
  let url: URL;
  try {
    url = new URL(replicaUrl);
  } catch {
    return {
      target: replicaUrl,
      lastAt: null,
      problem: "La dirección de la réplica no es válida.",
    };
  }
  url.username = "";
  url.password = "";
  const target = url.toString();
  try {
    const newest =
      url.protocol === "file:"
        ? await newestIn(decodeURIComponent(url.pathname))
        : url.protocol === "s3:"
          ? await newestInBucket(url)
          : null;
    if (newest === null && !["file:", "s3:"].includes(url.protocol))
      return { target, lastAt: null, problem: `Tipo de réplica no admitido: ${url.protocol}` };
    return {
      target,
      lastAt: newest === null ? null : new Date(newest).toISOString(),
      problem: newest === null ? "La réplica está vacía." : null,
    };
  } catch (error) {
    return {
      target,
      lastAt: null,
      problem: `No se pudo leer la réplica: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

const LAST_FAILURES = 5;

export async function getSystemStatus(database: DB, now = Date.now()): Promise<SystemStatus> {
  const [main, wal] = await Promise.all([
    fileInfo(env.databasePath),
    fileInfo(`${env.databasePath}-wal`),
  ]);
  const changedMs = Math.max(main?.changedMs ?? 0, wal?.changedMs ?? 0) || null;
  // The uploads folder appears with the first upload; until then its parent's disk is the one.
  const disk = await fs
    .statfs(env.uploadsDir)
    .catch(() => fs.statfs(path.dirname(env.uploadsDir)))
    .catch(() => null);

  const [lastBackup, lastBackupFailure, replication, mail, mailFailures, jobs, jobFailures] =
    await Promise.all([
      database
        .selectFrom("backup_runs")
        .select(["finished_at", "archive", "size_bytes", "file_count"])
        .where("ok", "=", 1)
        .orderBy("finished_at", "desc")
        .limit(1)
        .executeTakeFirst(),
      database
        .selectFrom("backup_runs")
        .select(["finished_at", "archive", "error"])
        .where("ok", "=", 0)
        .orderBy("finished_at", "desc")
        .limit(1)
        .executeTakeFirst(),
      readReplication(),
      database
        .selectFrom("mail_outbox")
        .select([
          sql<number>`coalesce(sum(status IN ('pending', 'sending')), 0)`.as("waiting"),
          sql<number>`coalesce(sum(status = 'failed'), 0)`.as("failed"),
        ])
        .executeTakeFirstOrThrow(),
      database
        .selectFrom("mail_outbox")
        .select(["subject", "last_error", "failed_at", "next_attempt_at"])
        .where("last_error", "is not", null)
        .where("status", "!=", "sent")
        .orderBy("id", "desc")
        .limit(LAST_FAILURES)
        .execute(),
      database
        .selectFrom("jobs")
        .select([
          sql<number>`coalesce(sum(done_at IS NULL AND failed_at IS NULL), 0)`.as("waiting"),
          sql<number>`coalesce(sum(failed_at IS NOT NULL), 0)`.as("failed"),
        ])
        .executeTakeFirstOrThrow(),
      database
        .selectFrom("jobs")
        .select(["kind", "last_error", "failed_at", "run_at"])
        .where("last_error", "is not", null)
        .where("done_at", "is", null)
        .orderBy("id", "desc")
        .limit(LAST_FAILURES)
        .execute(),
    ]);

  const warnings: string[] = [];
  const olderThanAnHour = (at: string) => now - Date.parse(at) > STALE_COPY_MS;
  // Recording a backup is itself a change: only a change a minute after the copy counts.
  const changedSince = (at: string) => changedMs !== null && changedMs > Date.parse(at) + 60_000;
  if (replication.target) {
    if (!replication.lastAt)
      warnings.push(
        `La réplica continua (Litestream) no responde: ${replication.problem ?? ""}`.trim(),
      );
    else if (olderThanAnHour(replication.lastAt) && changedSince(replication.lastAt))
      warnings.push(
        "La última réplica (Litestream) tiene más de una hora y la base de datos cambió después: revisa que Litestream siga en marcha.",
      );
  } else if (!lastBackup) {
    warnings.push(
      "No hay réplica continua y nunca se ha hecho una copia de seguridad completa (npm run backup).",
    );
  } else if (olderThanAnHour(lastBackup.finished_at) && changedSince(lastBackup.finished_at)) {
    warnings.push(
      "No hay réplica continua y la última copia de seguridad tiene más de una hora, con cambios posteriores.",
    );
  }
  if (lastBackupFailure && (!lastBackup || lastBackupFailure.finished_at > lastBackup.finished_at))
    warnings.push("La última copia de seguridad falló.");

  return {
    version: APP_VERSION,
    database: {
      path: env.databasePath,
      bytes: main?.bytes ?? 0,
      walBytes: wal?.bytes ?? 0,
      changedAt: changedMs ? new Date(changedMs).toISOString() : null,
    },
    storage: {
      backend: storage().name,
      where: storage().name === "s3" ? `s3://${env.S3_BUCKET}` : env.uploadsDir,
    },
    disk: disk
      ? { freeBytes: disk.bavail * disk.bsize, totalBytes: disk.blocks * disk.bsize }
      : null,
    lastBackup: lastBackup
      ? {
          at: lastBackup.finished_at,
          archive: lastBackup.archive,
          bytes: lastBackup.size_bytes,
          files: lastBackup.file_count,
        }
      : null,
    lastBackupFailure: lastBackupFailure
      ? {
          what: lastBackupFailure.archive,
          error: lastBackupFailure.error ?? "",
          at: lastBackupFailure.finished_at,
        }
      : null,
    replication,
    mail: {
      waiting: Number(mail.waiting),
      failed: Number(mail.failed),
      lastFailures: mailFailures.map((m) => ({
        what: m.subject,
        error: m.last_error ?? "",
        at: m.failed_at ?? m.next_attempt_at,
      })),
    },
    jobs: {
      waiting: Number(jobs.waiting),
      failed: Number(jobs.failed),
      lastFailures: jobFailures.map((j) => ({
        what: j.kind,
        error: j.last_error ?? "",
        at: j.failed_at ?? j.run_at,
      })),
    },
    warnings,
  };
}
