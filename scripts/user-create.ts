/**
 * `npm run user:create -- --email E --password P --role admin|partner|buyer [--first-name N --last-name A]`
 * Creates a verified user: how an operator makes the first administrator.
 */
import { parseArgs } from "node:util";
import { migrateToLatest } from "../db/migrate";
import { isRole } from "../app/domain/roles";
import { emailField, newPasswordField } from "../app/domain/validation";
import { hashPassword } from "../app/services/crypto.server";
import { db } from "../app/services/db.server";
import { createUser, emailExists } from "../app/models/user.server";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    role: { type: "string", default: "buyer" },
    "first-name": { type: "string", default: "Administrador" },
    "last-name": { type: "string", default: "CotizaHub" },
    company: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const email = emailField.safeParse(values.email ?? "");
if (!email.success) fail("Indica un correo válido con --email.");
const password = newPasswordField.safeParse(values.password ?? "");
if (!password.success) fail(`Contraseña no válida: ${password.error.issues[0]?.message}`);
if (!isRole(values.role)) fail("--role debe ser admin, partner o buyer.");

await migrateToLatest(db as never);
if (await emailExists(db, email.data)) fail(`Ya existe una cuenta con el correo ${email.data}.`);
const user = await createUser(db, {
  email: email.data,
  passwordHash: await hashPassword(password.data),
  firstName: values["first-name"]!,
  lastName: values["last-name"]!,
  companyName: values.company ?? null,
  role: values.role,
  verified: true,
});
console.log(`Usuario creado: #${user.id} ${user.email} (${user.role}), correo ya verificado.`);
await db.destroy();
