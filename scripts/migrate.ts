/** Brings the database at DATABASE_PATH to the latest migration; runs before every server start. */
import { migrateToLatest } from "../db/migrate";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";

try {
  const applied = await migrateToLatest(db as never);
  console.log(
    applied.length
      ? `Base de datos ${env.databasePath}: migraciones aplicadas: ${applied.join(", ")}`
      : `Base de datos ${env.databasePath}: al día.`,
  );
  await db.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
