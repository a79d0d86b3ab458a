import { settingsFromRows, type Settings } from "~/domain/settings";
import { now, type DB } from "./db.server";

/** The last settings read, parsed: validating them again on every request cost more than reading. */
let lastRead: { raw: string; settings: Settings } | undefined;

export async function getSettings(database: DB): Promise<Settings> {
  const rows = await database.selectFrom("settings").select(["key", "value"]).execute();
  const raw = rows.map((row) => `${row.key}=${row.value}`).join("\n");
  if (lastRead?.raw !== raw) lastRead = { raw, settings: Object.freeze(settingsFromRows(rows)) };
  return lastRead.settings;
}

export async function saveSettings(database: DB, settings: Settings): Promise<void> {
  const updatedAt = now();
  await database.transaction().execute(async (tx) => {
    for (const [key, value] of Object.entries(settings)) {
      await tx
        .insertInto("settings")
        .values({ key, value: JSON.stringify(value), updated_at: updatedAt })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({ value: JSON.stringify(value), updated_at: updatedAt }),
        )
        .execute();
    }
  });
}
