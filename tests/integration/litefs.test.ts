/**
 * LiteFS read replicas, simulated: LITEFS_DIR points at a folder; a `.primary` file in it names
 * the primary (as LiteFS writes it on every replica). Requests go over HTTP through the same edge
 * server.js mounts (guard, then replicaGuard) into the real contact page's loader and action.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/services/db.server";
import { env } from "~/services/env.server";
import { guard, replicaGuard } from "~/services/edge.server";

const litefs = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-litefs-"));
let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const contact = await import("~/routes/contact");
  const app = express();
  app.use((req, res, next) => guard(req, res, next));
  app.use((req, res, next) => replicaGuard(req, res, next).catch(next));
  app.all("/contact", async (req, res) => {
    const post = req.method === "POST";
    const request = new Request(base + req.url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: post ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: "half",
    } as RequestInit);
    const args = { request, params: {}, context: {} };
    const answer = post ? await contact.action(args) : await contact.loader(args);
    if (answer instanceof Response) {
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      return res.end(await answer.text());
    }
    res.status(200).json("data" in answer ? answer.data : answer);
  });
  app.get("/auth/verify", (_req, res) => res.status(200).send("verificado aquí"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => {
  close();
  fs.rmSync(litefs, { recursive: true, force: true });
});

afterEach(() => {
  delete process.env.LITEFS_DIR;
  fs.rmSync(path.join(litefs, ".primary"), { force: true });
});

const asReplicaOf = (primary: string) => {
  process.env.LITEFS_DIR = litefs;
  fs.writeFileSync(path.join(litefs, ".primary"), `${primary}\n`);
};
const asPrimary = () => {
  process.env.LITEFS_DIR = litefs;
};

const contacts = async () =>
  Number(
    (
      await db
        .selectFrom("contact_submissions")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

function sendContact(headers: Record<string, string> = {}) {
  return fetch(`${base}/contact`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({
      name: "Rosa Díaz",
      email: "rosa@ejemplo.test",
      phone: "",
      company: "Ferretería Díaz",
      message: "Quiero cotizar 200 válvulas.",
    }),
  });
}

describe("LiteFS replicas (simulated)", () => {
  it("without LiteFS, a POST is handled here and stored", async () => {
    const before = await contacts();
    const response = await sendContact();
    expect(response.status).toBe(302);
    expect(response.headers.get("fly-replay")).toBeNull();
    expect(await contacts()).toBe(before + 1);
  });

  it("on a replica, a POST answers fly-replay naming the primary and stores nothing", async () => {
    asReplicaOf("cotizahub-primario-mia");
    const before = await contacts();
    const response = await sendContact();
    expect(response.status).toBe(409);
    expect(response.headers.get("fly-replay")).toBe("instance=cotizahub-primario-mia");
    expect(await contacts()).toBe(before);
  });

  it("on a replica, a GET is served locally; a GET that writes goes to the primary", async () => {
    asReplicaOf("cotizahub-primario-mia");
    const page = await fetch(`${base}/contact`);
    expect(page.status).toBe(200);
    expect(page.headers.get("fly-replay")).toBeNull();
    expect(await page.json()).toHaveProperty("formToken");

    const verify = await fetch(`${base}/auth/verify?token=abc`, { redirect: "manual" });
    expect(verify.status).toBe(409);
    expect(verify.headers.get("fly-replay")).toBe("instance=cotizahub-primario-mia");
  });

  it("on the primary, a write stores and sets the transaction cookie a replica's next read waits for", async () => {
    asPrimary();
    fs.writeFileSync(
      path.join(litefs, `${path.basename(env.databasePath)}-pos`),
      "000000000000002a/0\n",
    );
    const before = await contacts();
    const response = await sendContact();
    expect(response.status).toBe(302);
    expect(await contacts()).toBe(before + 1);
    expect(response.headers.get("set-cookie")).toContain("txnum=42");

    // A replica that has not reached transaction 42 sends that reader's GET to the primary.
    asReplicaOf("cotizahub-primario-mia");
    fs.writeFileSync(
      path.join(litefs, `${path.basename(env.databasePath)}-pos`),
      "0000000000000029/0\n",
    );
    const behind = await fetch(`${base}/contact`, { headers: { Cookie: "txnum=42" } });
    expect(behind.status).toBe(409);
    expect(behind.headers.get("fly-replay")).toBe("instance=cotizahub-primario-mia");
    // Once it has, the GET is served here.
    fs.writeFileSync(
      path.join(litefs, `${path.basename(env.databasePath)}-pos`),
      "000000000000002a/0\n",
    );
    const caughtUp = await fetch(`${base}/contact`, { headers: { Cookie: "txnum=42" } });
    expect(caughtUp.status).toBe(200);
  });
});
