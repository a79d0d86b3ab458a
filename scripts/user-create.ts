/**
 * `npm run user:create -- --email E --password P --role admin|partner|buyer [--name "Nombre Apellido"]`
 * (or `--first-name N --last-name A`). Creates a verified user: how an operator makes the first
 * administrator. Without a name, it is derived from the e-mail (scripts/user-name.ts).
 */
import { parseArgs } from "node:util";
import { migrateToLatest } from "../db/migrate";
import { isRole } from "../app/domain/roles";
import { emailField, newPasswordField } from "../app/domain/validation";
import { hashPassword } from "../app/services/crypto.server";
import { db } from "../app/services/db.server";
import { createUser, emailExists } from "../app/models/user.server";
import { namesFromEmail, namesFromFullName } from "./user-name";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    role: { type: "string", default: "buyer" },
    name: { type: "string" },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
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
if (values.name !== undefined && !values.name.trim())
  fail('Indica el nombre con --name "Nombre Apellido".');
const derived =
  values.name !== undefined ? namesFromFullName(values.name) : namesFromEmail(email.data);
const firstName = values["first-name"]?.trim() || derived.firstName;
const lastName = values["last-name"]?.trim() || derived.lastName;
if (firstName.length > 80 || lastName.length > 80)
  fail("El nombre y el apellido admiten como máximo 80 caracteres cada uno.");

await migrateToLatest(db as never);
if (await emailExists(db, email.data)) fail(`Ya existe una cuenta con el correo ${email.data}.`);
const user = await createUser(db, {
  email: email.data,
  passwordHash: await hashPassword(password.data),
  firstName,
  lastName,
  companyName: values.company ?? null,
  role: values.role,
  verified: true,
});
console.log(`Usuario creado: #${user.id} ${user.email} (${user.role}), correo ya verificado.`);
console.log(`Nombre: ${user.first_name} ${user.last_name} (se puede cambiar en /profile).`);
await db.destroy();
