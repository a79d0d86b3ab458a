import { Migrator, type Kysely } from "kysely";
import { migrations } from "./migrations/index";

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(
      `La migración ${failed?.migrationName ?? "(desconocida)"} falló: ${reason}. El servidor no se inició.`,
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
