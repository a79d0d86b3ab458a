/** Prints the ids of every request in DATABASE_PATH as `requests <json>` (tests/integration/litestream.test.ts). */
import { db } from "~/services/db.server";

const rows = await db.selectFrom("quote_requests").select("id").execute();
process.stdout.write(`requests ${JSON.stringify(rows.map((r) => r.id))}\n`);
await db.destroy();
