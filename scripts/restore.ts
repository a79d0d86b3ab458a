/**
 * `npm run restore -- FILE.tar.gz [--force]`: restores a whole backup into DATABASE_PATH and the
 * file storage (UPLOADS_DIR or the S3 bucket). Refuses to overwrite existing data without --force;
 * stop the server first. Checks checksums, integrity and every file a row points to before writing.
 */
import { RestoreRefused, restoreBackup } from "../app/services/backup.server";
import { env } from "../app/services/env.server";

const args = process.argv.slice(2);
const force = args.includes("--force");
const archive = args.find((a) => !a.startsWith("--"));
if (!archive) {
  console.error("Uso: npm run restore -- ARCHIVO.tar.gz [--force]");
  process.exit(1);
}
try {
  const manifest = await restoreBackup(archive, { force });
  const rows = Object.values(manifest.database.rows).reduce((a, b) => a + b, 0);
  console.log(
    `Restaurada la copia del ${manifest.createdAt} (versión ${manifest.app.version}): ` +
      `${rows} filas en ${env.databasePath} y ${manifest.files.length} archivo(s). ` +
      `integrity_check: ok; sumas de verificación: ok.`,
  );
} catch (error) {
  console.error(
    error instanceof RestoreRefused
      ? error.message
      : `La restauración falló: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
