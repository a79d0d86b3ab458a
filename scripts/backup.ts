/**
 * `npm run backup -- FILE`: an online backup of the SQLite database (safe while the server runs;
 * better-sqlite3 uses SQLite's backup API, so the copy is consistent).
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { env } from "../app/services/env.server";

const target = process.argv[2];
if (!target) {
  console.error("Uso: npm run backup -- ARCHIVO_DESTINO.sqlite");
  process.exit(1);
}
if (!fs.existsSync(env.databasePath)) {
  console.error(`No existe la base de datos ${env.databasePath}.`);
  process.exit(1);
}
const destination = path.resolve(target);
fs.mkdirSync(path.dirname(destination), { recursive: true });
const source = new SQLite(env.databasePath, { readonly: true, fileMustExist: true });
await source.backup(destination);
source.close();
console.log(
  `Copia de seguridad escrita en ${destination} (${fs.statSync(destination).size} bytes).`,
);
console.log(
  `Los archivos subidos están en ${env.uploadsDir}: cópialos junto con la base de datos.`,
);
