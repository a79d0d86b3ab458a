/**
 * `npm run user:create -- --email E --password P --role admin|partner|buyer [--name "Nombre Apellido"]`
 * (or `--first-name N --last-name A`). Creates a verified user: how an operator makes the first
 * administrator. Without a name, it is taken from the e-mail when that gives first and last name
 * (scripts/user-name.ts); otherwise --name is required.
 */
import { parseArgs } from "node:util";
import { migrateToLatest } from "../db/migrate";
import { isRole, ROLE_LABELS } from "../app/domain/roles";
import { emailField, newPasswordField } from "../app/domain/validation";
import { hashPassword } from "../app/services/crypto.server";
import { env } from "../app/services/env.server";
import { namesFromEmail, namesFromFullName } from "./user-name";

const USAGE =
  'Uso: npm run user:create -- --email CORREO --password CONTRASEÑA [--role admin|partner|buyer] [--name "Nombre Apellido"] [--company EMPRESA]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** parseArgs's own errors are in English; each names the argument in quotes. */
function readArgs() {
  try {
    return parseArgs({
      options: {
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string", default: "buyer" },
        name: { type: "string" },
        "first-name": { type: "string" },
        "last-name": { type: "string" },
        company: { type: "string" },
      },
    }).values;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const argument = /'([^']+)'/.exec(message)?.[1]?.split(" ")[0] ?? "";
    const problem =
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `Opción desconocida: ${argument}.`
        : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
          ? `Falta el valor de ${argument}.`
          : code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL"
            ? `Argumento inesperado: ${argument}.`
            : "Argumentos no válidos.";
    fail(`${problem}\n${USAGE}`);
  }
}

const values = readArgs();
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
if (!firstName || !lastName)
  fail(
    values.name !== undefined
      ? 'Indica nombre y apellido con --name "Nombre Apellido".'
      : `El correo ${email.data} no da nombre y apellido: indícalos con --name "Nombre Apellido".`,
  );
if (firstName.length > 80 || lastName.length > 80)
  fail("El nombre y el apellido admiten como máximo 80 caracteres cada uno.");

// Importing db.server opens (and creates) the database: only once the arguments are valid.
const { db } = await import("../app/services/db.server");
const { createUser, emailExists } = await import("../app/models/user.server");
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
console.log(
  `Usuario creado: #${user.id} ${user.email} (${ROLE_LABELS[user.role].toLowerCase()}), ` +
    `con el correo ya verificado, en la base ${env.databasePath}.`,
);
console.log(`Nombre: ${user.first_name} ${user.last_name} (se puede cambiar en /profile).`);
await db.destroy();
