/**
 * `npm run restore -- FILE.tar.gz [--force]`: restores a whole backup into DATABASE_PATH and the
 * file storage (UPLOADS_DIR or the S3 bucket). Refuses to overwrite existing data without --force;
 * stop the server first. Checks that the archive holds only files and folders, then checksums,
 * integrity and every file a row points to, before writing.
 */
import fs from "node:fs";
import path from "node:path";
import { RestoreRefused, restoreBackup } from "../app/services/backup.server";
import { env } from "../app/services/env.server";

const args = process.argv.slice(2);
const force = args.includes("--force");
const archive = args.find((a) => !a.startsWith("--"));
if (!archive) {
  console.error("Uso: npm run restore -- ARCHIVO.tar.gz [--force]");
  process.exit(1);
}
const archivePath = path.resolve(archive);
const stat = fs.statSync(archivePath, { throwIfNoEntry: false });
if (!stat?.isFile()) {
  console.error(
    stat
      ? `${archivePath} no es un archivo: indica la copia de seguridad (.tar.gz).`
      : `No existe el archivo ${archivePath}: revisa la ruta de la copia de seguridad.`,
  );
  process.exit(1);
}

/** tar and zlib fail on a file that is not a backup with English messages of their own. */
function unreadable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && (code.startsWith("TAR_") || code.startsWith("Z_"));
}

try {
  const manifest = await restoreBackup(archivePath, { force });
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
      : unreadable(error)
        ? `La restauración falló: ${archivePath} no es una copia de seguridad legible (.tar.gz dañado o de otro tipo).`
        : `La restauración falló: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
