/**
 * `npm run backup -- FILE.tar.gz`: a whole backup while the server runs: a consistent snapshot of
 * the database, every stored file it points to, and a manifest (app/services/backup.server.ts).
 * Each run, good or failed, is recorded for the system page (/admin/system).
 */
import fs from "node:fs";
import { createBackup, recordBackup } from "../app/services/backup.server";
import { env } from "../app/services/env.server";

const target = process.argv[2];
if (!target) {
  console.error("Uso: npm run backup -- ARCHIVO_DESTINO.tar.gz");
  process.exit(1);
}
if (!fs.statSync(env.databasePath, { throwIfNoEntry: false })?.isFile()) {
  console.error(`No existe la base de datos ${env.databasePath}: revisa DATABASE_PATH.`);
  process.exit(1);
}
// Importing db.server opens (and creates) the database, so only once it is known to exist.
const { db } = await import("../app/services/db.server");
try {
  const { manifest, bytes } = await createBackup(target);
  await recordBackup(db, { archive: target, ok: true, bytes, files: manifest.files.length });
  const rows = Object.values(manifest.database.rows).reduce((a, b) => a + b, 0);
  console.log(
    `Copia de seguridad escrita en ${target} (${bytes} bytes): base de datos ${env.databasePath} ` +
      `(${rows} filas) y ${manifest.files.length} archivo(s).`,
  );
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  await recordBackup(db, { archive: target, ok: false, error: message }).catch(() => undefined);
  console.error(`La copia de seguridad falló: ${message}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
