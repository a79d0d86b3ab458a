/**
 * The operator's command-line scripts, run as real processes in an empty folder each: a usage
 * error, a missing file or a name that cannot be told is reported in Spanish with a non-zero exit,
 * before any database is opened, so the folder stays empty.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupWith, type ArchiveEntry } from "../tar-archive";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-operator-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let folders = 0;
/** An empty folder, the script's working directory; DATABASE_PATH's default (db/app.sqlite) is inside. */
function emptyFolder(): string {
  const dir = path.join(work, `f${++folders}`);
  fs.mkdirSync(dir);
  return dir;
}

const contents = (dir: string) => fs.readdirSync(dir, { recursive: true }).sort();

/** Runs a script from `cwd` with the app's variables only as given (none inherited from the tests). */
function run(script: string, args: string[], cwd: string, vars: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"),
  };
  for (const name of ["DATABASE_PATH", "UPLOADS_DIR", "MAIL_DIR"]) delete env[name];
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(TSX, [path.join(ROOT, script), ...args], {
      cwd,
      env: { ...env, ...vars },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

const inside = (dir: string) => ({
  DATABASE_PATH: path.join(dir, "datos/app.sqlite"),
  UPLOADS_DIR: path.join(dir, "uploads"),
  MAIL_DIR: path.join(dir, "mail"),
});

describe("npm run backup", { timeout: 60_000 }, () => {
  it("prints its usage without a destination, creating no database", async () => {
    const dir = emptyFolder();
    const result = await run("scripts/backup.ts", [], dir);
    expect(result.out.trim()).toBe("Uso: npm run backup -- ARCHIVO_DESTINO.tar.gz");
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });

  it("refuses a DATABASE_PATH with no database, creating nothing", async () => {
    const dir = emptyFolder();
    const vars = inside(dir);
    const result = await run("scripts/backup.ts", [path.join(dir, "copia.tar.gz")], dir, vars);
    expect(result.out.trim()).toBe(
      `No existe la base de datos ${vars.DATABASE_PATH}: revisa DATABASE_PATH.`,
    );
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });
});

describe("npm run restore", { timeout: 60_000 }, () => {
  it("says in Spanish that the archive does not exist, writing nothing", async () => {
    const dir = emptyFolder();
    const archive = path.join(dir, "no-existe.tar.gz");
    const result = await run("scripts/restore.ts", [archive], dir, inside(dir));
    expect(result.out.trim()).toBe(
      `No existe el archivo ${archive}: revisa la ruta de la copia de seguridad.`,
    );
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });

  it("says so when the path is a folder", async () => {
    const dir = emptyFolder();
    const result = await run("scripts/restore.ts", [dir], dir, inside(dir));
    expect(result.out.trim()).toBe(
      `${dir} no es un archivo: indica la copia de seguridad (.tar.gz).`,
    );
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });

  it("says in Spanish that a file which is no archive is not a backup", async () => {
    const dir = emptyFolder();
    const archive = path.join(dir, "notas.tar.gz");
    fs.writeFileSync(archive, "no es una copia");
    const vars = inside(dir);
    const result = await run("scripts/restore.ts", [archive], dir, vars);
    expect(result.out.trim()).toBe(
      `La restauración falló: ${archive} no es una copia de seguridad legible (.tar.gz dañado o de otro tipo).`,
    );
    expect(result.code).toBe(1);
    expect(fs.existsSync(vars.DATABASE_PATH)).toBe(false);
  });
});

describe(
  "npm run restore, an archive with entries a backup never holds",
  { timeout: 60_000 },
  () => {
    const refusedEntry = (name: string, kind: string) =>
      `La restauración falló: la entrada «${name}» es ${kind}; una copia de seguridad solo contiene archivos y carpetas. No se escribió nada.`;

    it.each<[string, ArchiveEntry, string]>([
      [
        "a hard link to a missing file",
        { path: "files/2026/enlace.pdf", type: "Link", linkpath: "files/no-existe.pdf" },
        refusedEntry("files/2026/enlace.pdf", "un enlace duro"),
      ],
      [
        "a symbolic link out of the archive",
        { path: "files/2026/atajo", type: "SymbolicLink", linkpath: "/etc" },
        refusedEntry("files/2026/atajo", "un enlace simbólico"),
      ],
      [
        "a FIFO",
        { path: "files/fifo", type: "FIFO" },
        refusedEntry("files/fifo", "una tubería con nombre (FIFO)"),
      ],
      [
        "a character device",
        { path: "files/null", type: "CharacterDevice" },
        refusedEntry("files/null", "un dispositivo de caracteres"),
      ],
      [
        "a block device",
        { path: "files/disco", type: "BlockDevice" },
        refusedEntry("files/disco", "un dispositivo de bloques"),
      ],
      [
        "a path that climbs out of the archive",
        { path: "files/../../fuera.txt", body: Buffer.from("x") },
        "La restauración falló: la entrada «files/../../fuera.txt» apunta fuera de la copia; una copia de seguridad solo contiene archivos y carpetas. No se escribió nada.",
      ],
    ])("refuses %s in Spanish, naming it, before staging anything", async (_name, odd, message) => {
      const dir = emptyFolder();
      const vars = inside(dir);
      const archive = path.join(dir, "copia.tar.gz");
      backupWith(archive, [odd]);
      const result = await run("scripts/restore.ts", [archive], dir, vars);
      expect(result.out.trim()).toBe(message);
      expect(result.code).toBe(1);
      // Refused before staging: not even the staging folder was made.
      expect(contents(dir)).toEqual(["copia.tar.gz"]);
    });

    it("removes its staging folder when a check after extraction fails", async () => {
      const dir = emptyFolder();
      const vars = inside(dir);
      const archive = path.join(dir, "copia.tar.gz");
      backupWith(archive, []);
      const result = await run("scripts/restore.ts", [archive], dir, vars);
      expect(result.out.trim()).toBe(
        "La restauración falló: La suma de verificación de la base de datos no coincide.",
      );
      expect(result.code).toBe(1);
      expect(fs.readdirSync(path.join(vars.UPLOADS_DIR, ".tmp"))).toEqual([]);
    });

    it("when extraction itself fails (a file where a folder goes), says so in Spanish and removes its staging folder", async () => {
      const dir = emptyFolder();
      const vars = inside(dir);
      const archive = path.join(dir, "copia.tar.gz");
      backupWith(archive, [
        { path: "files/2026", body: Buffer.from("un archivo") },
        { path: "files/2026/plano.pdf", body: Buffer.from("%PDF-1.4") },
      ]);
      const result = await run("scripts/restore.ts", [archive], dir, vars);
      expect(result.out.trim()).toMatch(
        /^La restauración falló: La copia no se pudo desempaquetar \(«files\/2026\/plano\.pdf»: E[A-Z]+/,
      );
      expect(result.code).toBe(1);
      expect(fs.readdirSync(path.join(vars.UPLOADS_DIR, ".tmp"))).toEqual([]);
      expect(fs.existsSync(vars.DATABASE_PATH)).toBe(false);
    });
  },
);

describe("npm run user:create", { timeout: 60_000 }, () => {
  const password = "Secreta123!";

  it("asks for --name when the e-mail gives no last name, creating no database", async () => {
    const dir = emptyFolder();
    const result = await run(
      "scripts/user-create.ts",
      ["--email", "socio3@x.test", "--password", password, "--role", "partner"],
      dir,
    );
    expect(result.out.trim()).toBe(
      'El correo socio3@x.test no da nombre y apellido: indícalos con --name "Nombre Apellido".',
    );
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });

  it("reports an unknown option in Spanish with its usage, creating no database", async () => {
    const dir = emptyFolder();
    const result = await run("scripts/user-create.ts", ["--nombre", "Ana"], dir);
    expect(result.out).toContain("Opción desconocida: --nombre.");
    expect(result.out).toContain("Uso: npm run user:create -- --email CORREO");
    expect(result.out).not.toContain("ERR_PARSE_ARGS");
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });

  it("names the role in Spanish and the name from the e-mail", async () => {
    const dir = emptyFolder();
    const vars = inside(dir);
    const result = await run(
      "scripts/user-create.ts",
      ["--email", "ana.lopez@x.test", "--password", password, "--role", "partner"],
      dir,
      vars,
    );
    expect(result.out).toMatch(
      /^Usuario creado: #1 ana\.lopez@x\.test \(socio\), con el correo ya verificado, en la base /,
    );
    expect(result.out).toContain("Nombre: Ana Lopez (se puede cambiar en /profile).");
    expect(result.code).toBe(0);
    const sqlite = new SQLite(vars.DATABASE_PATH, { readonly: true });
    expect(sqlite.prepare("SELECT first_name, last_name, role FROM users").all()).toEqual([
      { first_name: "Ana", last_name: "Lopez", role: "partner" },
    ]);
    sqlite.close();
  });
});

describe("npm run seed:large", { timeout: 60_000 }, () => {
  it("rejects a bad --requests before creating the database", async () => {
    const dir = emptyFolder();
    const result = await run("scripts/seed-large.ts", ["--requests", "muchas"], dir, inside(dir));
    expect(result.out.trim()).toBe(
      "--requests necesita un número entero positivo (p. ej. --requests 1000000).",
    );
    expect(result.code).toBe(1);
    expect(contents(dir)).toEqual([]);
  });
});
