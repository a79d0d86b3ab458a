/**
 * The upload and download rules, run against both storage backends: the uploads folder and an
 * S3-compatible bucket (a local s3rver on 127.0.0.1, started here). A request file is uploaded
 * through the real action and downloaded through the real file route (session, signed link,
 * access rule); refused, failed and killed uploads leave no object behind.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fail, ok } from "~/domain/result";
import { MAX_UPLOAD_BYTES } from "~/domain/files";
import { db } from "~/services/db.server";
import { env } from "~/services/env.server";
import { startSession } from "~/services/session.server";
import { fileLinks } from "~/services/signed-url.server";
import {
  fileResponse,
  localBackend,
  s3Backend,
  stageBytes,
  storage,
  storeUpload,
  sweepOrphanFiles,
  useStorageBackend,
  type S3Config,
  type StorageBackend,
} from "~/services/storage.server";
import { makeUser } from "./factories";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BASE = "http://localhost:3999";
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-s3-"));
let s3server: S3rver | undefined;
let s3Config: S3Config;

beforeAll(async () => {
  s3server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: "cotizahub-pruebas", configs: [] }],
  });
  const { port } = await s3server.run();
  s3Config = {
    bucket: "cotizahub-pruebas",
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    // s3rver's fixed test credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
});

afterAll(async () => {
  await s3server?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage().list()) keys.push(file.key);
  return keys.sort();
}

function tempFiles(): string[] {
  const dir = path.join(env.uploadsDir, ".tmp");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function signedIn(userId: number) {
  const setCookie = await startSession(db, new Request(BASE), userId);
  return setCookie.split(";")[0]!;
}

function newRequestForm(file: Blob, name: string): FormData {
  const form = new FormData();
  form.set("title", "Válvulas de bola");
  form.set("description", "Acero inoxidable, 2 pulgadas");
  form.set("file", file, name);
  return form;
}

async function answer(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

type Reply = { init?: { status?: number }; data: { result: { error?: Record<string, string[]> } } };

const backends: [string, () => StorageBackend][] = [
  ["la carpeta de archivos", () => localBackend()],
  ["un bucket S3", () => s3Backend(s3Config)],
];

describe.each(backends)("almacenamiento en %s", (name, make) => {
  beforeAll(async () => {
    useStorageBackend(make());
    for (const key of await storedKeys()) await storage().remove(key);
  });

  it("guarda el archivo de una solicitud y lo sirve solo a quien puede verlo, con sus cabeceras", async () => {
    const page = await import("~/routes/buyer.quotes.new");
    const route = await import("~/routes/files.requests.$id");
    const buyer = await makeUser("buyer");
    const stranger = await makeUser("buyer");
    const form = newRequestForm(new Blob([PDF], { type: "application/pdf" }), "requisitos.pdf");
    const request = new Request(`${BASE}/buyer/quotes/new`, {
      method: "POST",
      headers: { Cookie: await signedIn(buyer) },
      body: form,
    });
    const done = (await answer(() =>
      page.action({ request, params: {}, context: {} }),
    )) as Response;
    expect(done.status).toBe(302);
    const id = Number(done.headers.get("Location")!.split("/").pop());
    const row = await db
      .selectFrom("quote_requests")
      .select(["file_key", "file_size"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await storedKeys()).toContain(row.file_key);
    if (name === "un bucket S3")
      expect(fs.existsSync(path.join(env.uploadsDir, row.file_key))).toBe(false);
    expect(tempFiles()).toEqual([]);

    const download = async (userId: number) => {
      const link = (await fileLinks(`/files/requests/${id}`, userId)).download;
      const get = new Request(BASE + link, { headers: { Cookie: await signedIn(userId) } });
      return (await answer(() =>
        route.loader({ request: get, params: { id: String(id) }, context: {} }),
      )) as Response;
    };
    const mine = await download(buyer);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="requisitos.pdf"/,
    );
    expect(mine.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(mine.headers.get("Content-Length")).toBe(String(PDF.length));
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(PDF);

    const theirs = await download(stranger);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain("%PDF");
  });

  it("rechaza un archivo cuyo contenido no es el que dice su nombre, sin guardar nada", async () => {
    const page = await import("~/routes/buyer.quotes.new");
    const before = await storedKeys();
    const request = new Request(`${BASE}/buyer/quotes/new`, {
      method: "POST",
      headers: { Cookie: await signedIn(await makeUser("buyer")) },
      body: newRequestForm(new Blob([PNG]), "requisitos.pdf"),
    });
    const reply = (await answer(() => page.action({ request, params: {}, context: {} }))) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.result.error?.file?.[0]).toMatch(/^Tipo de archivo no permitido/);
    expect(await storedKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
  });

  it("corta un archivo de más de 10 MB mientras llega, sin guardar nada", async () => {
    const page = await import("~/routes/buyer.quotes.new");
    const before = await storedKeys();
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const request = new Request(`${BASE}/buyer/quotes/new`, {
      method: "POST",
      headers: { Cookie: await signedIn(await makeUser("buyer")) },
      body: newRequestForm(new Blob([big]), "grande.pdf"),
    });
    const reply = (await answer(() => page.action({ request, params: {}, context: {} }))) as
      Reply | Response;
    const status = reply instanceof Response ? reply.status : reply.init?.status;
    expect([400, 413]).toContain(status);
    expect(await storedKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
  });

  it("borra el objeto cuando la transacción que lo guarda se niega o falla", async () => {
    const before = await storedKeys();
    const refused = await storeUpload(await stageBytes(PDF, "pdf"), async () =>
      fail("conflict", "Ya no se puede cambiar."),
    );
    expect(refused.ok).toBe(false);
    await expect(
      storeUpload(await stageBytes(PDF, "pdf"), async () => {
        throw new Error("disco lleno");
      }),
    ).rejects.toThrow("disco lleno");
    expect(await storedKeys()).toEqual(before);
    const kept = await storeUpload(await stageBytes(PDF, "pdf"), async (file) => ok(file!.key));
    expect(kept.ok && (await storedKeys()).includes(kept.value)).toBe(true);
  });

  it("una subida cortada por el cliente a medio cuerpo no deja objeto ni archivo temporal", async () => {
    const page = await import("~/routes/buyer.quotes.new");
    const before = await storedKeys();
    const boundary = "----corte";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nVálvulas\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plano.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n`,
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        controller.enqueue(PDF);
        controller.enqueue(Buffer.alloc(64 * 1024));
        setTimeout(() => controller.error(new Error("conexión cortada")), 20);
      },
    });
    const request = new Request(`${BASE}/buyer/quotes/new`, {
      method: "POST",
      headers: {
        Cookie: await signedIn(await makeUser("buyer")),
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: "half",
    } as RequestInit);
    await answer(() => page.action({ request, params: {}, context: {} })).catch(() => undefined);
    expect(await storedKeys()).toEqual(before);
    expect(tempFiles()).toEqual([]);
  });

  it("un servidor matado (kill -9) entre subir y guardar la fila no deja objeto tras el arranque", async () => {
    const before = await storedKeys();
    const childEnv: NodeJS.ProcessEnv = { ...process.env };
    if (name === "un bucket S3")
      Object.assign(childEnv, {
        S3_BUCKET: s3Config.bucket,
        S3_ENDPOINT: s3Config.endpoint,
        S3_REGION: s3Config.region,
        S3_ACCESS_KEY_ID: s3Config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3Config.secretAccessKey,
      });
    const ended = await new Promise<string | number | null>((resolve) => {
      const child = spawn(
        path.join(ROOT, "node_modules/.bin/tsx"),
        [path.join(import.meta.dirname, "processes/killed-upload.ts")],
        { cwd: ROOT, env: childEnv, stdio: ["ignore", "inherit", "inherit"] },
      );
      // tsx runs the script in a child of its own and passes the signal on as exit code 128 + 9.
      child.on("exit", (code, signal) => resolve(signal ?? code));
    });
    expect(["SIGKILL", 137]).toContain(ended);
    // The object reached the backend, but no row points to it: the start-up sweep removes it.
    const left = (await storedKeys()).filter((key) => !before.includes(key));
    expect(left).toHaveLength(1);
    const rows = await db.selectFrom("quote_requests").select("file_key").execute();
    const referenced = before.filter((key) => rows.some((row) => row.file_key === key));
    expect(referenced.length).toBeGreaterThan(0);
    expect(await sweepOrphanFiles(db, 0)).toBeGreaterThanOrEqual(1);
    const after = await storedKeys();
    expect(after).not.toContain(left[0]);
    for (const key of referenced) expect(after).toContain(key);
  }, 60_000);

  it.skipIf(name !== "un bucket S3")(
    "la limpieza de huérfanos no toca lo que no es un archivo subido (la réplica de Litestream en el mismo bucket)",
    async () => {
      const replicaKey = "db/generations/0123456789abcdef/wal/00000000.wal.lz4";
      await storage().put(replicaKey, (await stageBytes(PDF, "lz4")).tempPath);
      await sweepOrphanFiles(db, 0);
      expect(await storage().size(replicaKey)).toBe(PDF.length);
      expect(await storedKeys()).not.toContain(replicaKey);
    },
  );

  it("un archivo que falta responde «Archivo no encontrado» (404)", async () => {
    const missing = (await answer(() =>
      fileResponse("2026/01/no-existe.pdf", { name: "x.pdf", type: "application/pdf" }),
    )) as Response;
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("Archivo no encontrado");
  });
});

describe("un bucket S3 que no responde", () => {
  it("rechaza la subida sin dejar archivo temporal ni fila", async () => {
    useStorageBackend(s3Backend({ ...s3Config, endpoint: "http://127.0.0.1:1" }));
    const staged = await stageBytes(PDF, "pdf");
    let committed = false;
    await expect(
      storeUpload(staged, async () => {
        committed = true;
        return ok(undefined);
      }),
    ).rejects.toThrow();
    expect(committed).toBe(false);
    expect(fs.existsSync(staged.tempPath)).toBe(false);
    useStorageBackend(localBackend());
  }, 30_000);
});
