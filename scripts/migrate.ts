/**
 * Runs before every server start: brings the database at DATABASE_PATH to the latest migration,
 * then removes upload files that no row points to (left by a server killed mid-upload).
 */
import { migrateToLatest } from "../db/migrate";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { sweepOrphanFiles } from "../app/services/storage.server";

try {
  const applied = await migrateToLatest(db as never);
  console.log(
    applied.length
      ? `Base de datos ${env.databasePath}: migraciones aplicadas: ${applied.join(", ")}`
      : `Base de datos ${env.databasePath}: al día.`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const removed = await sweepOrphanFiles(db);
if (removed > 0) console.log(`Archivos huérfanos eliminados: ${removed}`);
await db.destroy();
