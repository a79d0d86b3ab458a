import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ExpressionBuilder } from "kysely";
import nodemailer, { type Transporter } from "nodemailer";
import type { Database } from "../../db/schema";
import type { Tx } from "./db.server";
import { db, now, type DB } from "./db.server";
import { appUrl, env } from "./env.server";

/**
 * Outgoing mail goes through the `mail_outbox` table: it is written in the same transaction as the
 * event that causes it, then delivered by `processOutbox`, which retries failures with back-off.
 * Without SMTP_URL a delivered mail is an .eml file in MAIL_DIR.
 */

interface MailMessage {
  to: string;
  subject: string;
  /** Plain paragraphs; the HTML version is built from them. */
  paragraphs: string[];
  action?: { label: string; url: string };
}

const BRAND = "CotizaHub";
const MAX_ATTEMPTS = 8;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function renderMail(message: MailMessage): { text: string; html: string } {
  const footer = `${BRAND} · Este es un mensaje automático; no respondas a este correo.`;
  const text = [
    ...message.paragraphs,
    ...(message.action ? [`${message.action.label}: ${message.action.url}`] : []),
    "",
    "--",
    footer,
  ].join("\n\n");
  const html = `<!doctype html><html lang="es"><body style="font-family:Arial,sans-serif;color:#0f172a">
<h1 style="font-size:20px;color:#1e40af">${BRAND}</h1>
${message.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${
  message.action
    ? `<p><a href="${escapeHtml(message.action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(message.action.label)}</a></p>`
    : ""
}
<p style="color:#64748b;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  return { text, html };
}

/** Absolute link for a path inside the app, for use in mails. */
export function absoluteUrl(pathname: string): string {
  return `${appUrl()}${pathname}`;
}

export async function enqueueMail(tx: Tx | DB, message: MailMessage): Promise<void> {
  const { text, html } = renderMail(message);
  await tx
    .insertInto("mail_outbox")
    .values({
      to_address: message.to,
      subject: message.subject,
      text_body: text,
      html_body: html,
      status: "pending",
      next_attempt_at: now(),
    })
    .execute();
}

let transporter: Transporter | undefined;

function smtpTransport(): Transporter | undefined {
  if (!env.SMTP_URL) return undefined;
  transporter ??= nodemailer.createTransport(env.SMTP_URL);
  return transporter;
}

const emlBuilder = nodemailer.createTransport({
  streamTransport: true,
  buffer: true,
  newline: "unix",
});

/** One outbox row on its way out. */
export interface OutgoingMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Hands one mail to the outside world; throws when it was not accepted. */
type MailTransport = (mail: OutgoingMail) => Promise<void>;

/** SMTP when SMTP_URL is set, otherwise an .eml file in MAIL_DIR. */
const defaultTransport: MailTransport = async (mail) => {
  const message = {
    from: env.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
  const smtp = smtpTransport();
  if (smtp) {
    await smtp.sendMail(message);
    return;
  }
  const info = await emlBuilder.sendMail(message);
  await fs.mkdir(env.mailDir, { recursive: true });
  const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const name = `${Date.now()}-${mail.id}-${safeTo}.eml`;
  const tmp = path.join(env.mailDir, `.${name}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  await fs.writeFile(tmp, info.message as Buffer);
  await fs.rename(tmp, path.join(env.mailDir, name));
};

/** A claim older than this is taken to belong to a crashed worker and may be taken over. */
const STALE_CLAIM_MS = 5 * 60_000;

/**
 * One pass over the outbox: sends every due mail through `transport`. Each row is claimed with one
 * conditional UPDATE that repeats the "due" test and stamps a claim token, so of any number of
 * workers (processes or connections) exactly one wins a row; finishing a row also requires the token,
 * so a worker whose claim went stale cannot overwrite the newer holder's result.
 */
export async function processOutbox(
  database: DB,
  transport: MailTransport = defaultTransport,
): Promise<number> {
  const isDue = (at: number) => (eb: ExpressionBuilder<Database, "mail_outbox">) =>
    eb.or([
      eb.and([
        eb("status", "=", "pending"),
        eb("next_attempt_at", "<=", new Date(at).toISOString()),
      ]),
      eb.and([
        eb("status", "=", "sending"),
        eb("claimed_at", "<=", new Date(at - STALE_CLAIM_MS).toISOString()),
      ]),
    ]);
  const due = await database
    .selectFrom("mail_outbox")
    .select("id")
    .where(isDue(Date.now()))
    .orderBy("id")
    .limit(50)
    .execute();
  let sent = 0;
  for (const { id } of due) {
    const token = crypto.randomUUID();
    const row = await database
      .updateTable("mail_outbox")
      .set({ status: "sending", claimed_at: now(), claim_token: token })
      .where("id", "=", id)
      .where(isDue(Date.now()))
      .returning(["id", "to_address", "subject", "text_body", "html_body", "attempts"])
      .executeTakeFirst();
    if (!row) continue; // another worker claimed it first
    const ours = database
      .updateTable("mail_outbox")
      .where("id", "=", id)
      .where("claim_token", "=", token);
    try {
      await transport({
        id: row.id,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      sent++;
      await ours
        .set({
          status: "sent",
          sent_at: now(),
          attempts: row.attempts + 1,
          last_error: null,
          claimed_at: null,
          claim_token: null,
        })
        .execute();
    } catch (error) {
      const attempts = row.attempts + 1;
      const backoffMs = Math.min(2 ** attempts * 30_000, 6 * 60 * 60_000);
      await ours
        .set({
          status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
          attempts,
          last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
          next_attempt_at: new Date(Date.now() + backoffMs).toISOString(),
          claimed_at: null,
          claim_token: null,
        })
        .execute();
    }
  }
  return sent;
}

let running: Promise<number> | null = null;
let runAgain = false;

/** Delivers due mail from this process, one pass at a time. */
function deliverDueMail(database: DB = db): Promise<number> {
  if (running) {
    // Mail enqueued while a pass is under way is picked up by one more pass.
    runAgain = true;
    return running;
  }
  running = (async () => {
    let sent = 0;
    try {
      do {
        runAgain = false;
        sent += await processOutbox(database);
      } while (runAgain);
    } finally {
      running = null;
    }
    return sent;
  })();
  return running;
}

/** Kick delivery after a commit without making the request wait for it. */
export function deliverSoon(): void {
  setImmediate(() => {
    deliverDueMail().catch((error) => console.error("[mail] delivery failed", error));
  });
}

declare global {
  var __mailTimer: NodeJS.Timeout | undefined;
}

/** Retries pending mail every 30 s for the life of the server process. */
export function startMailWorker(): void {
  if (globalThis.__mailTimer || process.env.NODE_ENV === "test") return;
  globalThis.__mailTimer = setInterval(() => {
    deliverDueMail().catch((error) => console.error("[mail] delivery failed", error));
  }, 30_000);
  globalThis.__mailTimer.unref();
  deliverSoon();
}
