/**
 * `npm run db:seed`: demo data for a first look (see scripts/demo.ts; idempotent).
 * Accounts (all with the password Demo1234!):
 *   admin@demo.cotizahub.test          administrator
 *   comprador@demo.cotizahub.test      buyer with a request in every status, payments and points
 *   socio@demo.cotizahub.test          partner (featured)
 *   socio2@demo.cotizahub.test         partner (featured)
 *   gobierno@, concesionario@, supermercado@demo.cotizahub.test   more buyers
 */
import { sql } from "kysely";
import { migrateToLatest } from "../db/migrate";
import { DEMO_PASSWORD, seedDemo } from "./demo";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { processOutbox } from "../app/services/mailer.server";

await migrateToLatest(db as never);
const report = await seedDemo(db);

/**
 * The story's model calls queued its e-mails (to .test addresses) and started delivering them in
 * this process, as after any action: without SMTP_URL they become .eml files in MAIL_DIR. Finish
 * that before closing the database, so no delivery pass runs against a closed connection.
 */
async function finishMail(): Promise<void> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 25));
  for (let pass = 0; pass < 400; pass++) {
    const sent = await processOutbox(db);
    const { busy } = await db
      .selectFrom("mail_outbox")
      .select(sql<number>`count(*)`.as("busy"))
      .where("status", "=", "sending")
      .executeTakeFirstOrThrow();
    if (sent === 0 && Number(busy) === 0) break;
    await pause();
  }
  await pause();
}
await finishMail();

if (!report.accountsCreated && !report.catalogueCreated && !report.storyCreated) {
  console.log("Datos de demostración ya presentes.");
} else {
  const parts = [
    report.accountsCreated ? `${report.accountsCreated} cuentas` : null,
    report.catalogueCreated ? "catálogo" : null,
    report.storyCreated ? "solicitudes, cotizaciones, pagos y puntos del comprador demo" : null,
  ].filter(Boolean);
  console.log(`Datos de demostración creados: ${parts.join(", ")}.`);
  console.log("Contraseña de las cuentas demo: " + DEMO_PASSWORD);
  if (report.storyCreated)
    console.log(
      env.SMTP_URL
        ? "Los avisos por correo de la demo se enviaron por SMTP a direcciones .test (no existen)."
        : `Los avisos por correo de la demo están en ${env.mailDir} como archivos .eml.`,
    );
}
await db.destroy();
