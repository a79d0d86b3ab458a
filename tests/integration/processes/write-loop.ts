/**
 * A server-like writer for tests/integration/backup.test.ts: against DATABASE_PATH and the file
 * storage of its environment, it keeps creating requests with an uploaded file (and now and then
 * replaces an earlier request's file, deleting the old one as an edit does), each through
 * storeUpload and a write transaction. After each commit it prints `ack <id> <key> <sha256>`: the
 * acknowledged writes a backup or a replica taken later must hold. Says `ready <pid>` when it
 * starts writing; runs until killed, or with `--until-stdin-closes` until its stdin closes.
 */
import crypto from "node:crypto";
import { ok } from "~/domain/result";
import { db, now, writeTransaction } from "~/services/db.server";
import { stageBytes, storeUpload } from "~/services/storage.server";

let running = true;
if (process.argv.includes("--until-stdin-closes"))
  process.stdin.on("end", () => (running = false)).resume();

const stamp = now();
const { id: buyerId } = await db
  .insertInto("users")
  .values({
    email: `escritor.p${process.pid}@ejemplo.test`,
    password_hash: "x",
    first_name: "Escritor",
    last_name: "Prueba",
    company_name: "Empresa",
    role: "buyer",
    email_verified_at: stamp,
    created_at: stamp,
    updated_at: stamp,
  })
  .returning("id")
  .executeTakeFirstOrThrow();

function pdfBytes(): Uint8Array {
  return Buffer.concat([
    Buffer.from("%PDF-1.4\n"),
    crypto.randomBytes(2000 + crypto.randomInt(8000)),
  ]);
}
const digest = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

const created: number[] = [];
process.stdout.write(`ready ${process.pid}\n`);
for (let n = 0; running; n++) {
  const bytes = pdfBytes();
  if (n % 5 === 4 && created.length) {
    const id = created[crypto.randomInt(created.length)];
    const result = await storeUpload(
      await stageBytes(bytes, "pdf"),
      (file) =>
        writeTransaction(db, async (tx) => {
          const before = await tx
            .selectFrom("quote_requests")
            .select("file_key")
            .where("id", "=", id)
            .executeTakeFirstOrThrow();
          await tx
            .updateTable("quote_requests")
            .set({ file_key: file!.key, file_size: file!.size, updated_at: now() })
            .where("id", "=", id)
            .execute();
          return ok({ id, key: file!.key, old: before.file_key });
        }),
      { replaced: (value) => value.old },
    );
    if (result.ok) process.stdout.write(`ack ${id} ${result.value.key} ${digest(bytes)}\n`);
    continue;
  }
  const result = await storeUpload(await stageBytes(bytes, "pdf"), (file) =>
    writeTransaction(db, async (tx) => {
      const row = await tx
        .insertInto("quote_requests")
        .values({
          buyer_id: buyerId,
          title: `Solicitud ${n}`,
          description: "Escrita durante una copia de seguridad",
          file_name: "plano.pdf",
          file_type: "application/pdf",
          file_key: file!.key,
          file_size: file!.size,
          status: "pending",
          created_at: now(),
          updated_at: now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return ok({ id: row.id, key: file!.key });
    }),
  );
  if (result.ok) {
    created.push(result.value.id);
    process.stdout.write(`ack ${result.value.id} ${result.value.key} ${digest(bytes)}\n`);
  }
}
await db.destroy();
process.stdout.write("done\n");
