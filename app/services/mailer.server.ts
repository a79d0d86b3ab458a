import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Tx } from "./db.server";
import { db, now, type DB } from "./db.server";
import { appUrl, env } from "./env.server";

/**
 * Outgoing mail goes through the `mail_outbox` table: it is written in the same transaction as the
 * event that causes it, then delivered by `deliverDueMail`, which retries failures with back-off.
 * Without SMTP_URL a delivered mail is an .eml file in MAIL_DIR.
 */

export interface MailMessage {
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

export function renderMail(message: MailMessage): { text: string; html: string } {
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

async function deliver(row: {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
}) {
  const mail = {
    from: env.MAIL_FROM,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
  };
  const smtp = smtpTransport();
  if (smtp) {
    await smtp.sendMail(mail);
    return;
  }
  const info = await emlBuilder.sendMail(mail);
  await fs.mkdir(env.mailDir, { recursive: true });
  const safeTo = row.to_address.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const name = `${Date.now()}-${row.id}-${safeTo}.eml`;
  const tmp = path.join(env.mailDir, `.${name}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  await fs.writeFile(tmp, info.message as Buffer);
  await fs.rename(tmp, path.join(env.mailDir, name));
}

let running: Promise<number> | null = null;
let runAgain = false;

/**
 * Sends every due mail once. Rows are claimed with a conditional UPDATE, so two server instances
 * never send the same mail; a crash while "sending" is picked up again after five minutes.
 */
export function deliverDueMail(database: DB = db): Promise<number> {
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
        const due = await database
          .selectFrom("mail_outbox")
          .select(["id", "to_address", "subject", "text_body", "html_body", "attempts"])
          .where((eb) =>
            eb.or([
              eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now())]),
              eb.and([
                eb("status", "=", "sending"),
                eb("next_attempt_at", "<=", new Date(Date.now() - 5 * 60_000).toISOString()),
              ]),
            ]),
          )
          .orderBy("id")
          .limit(50)
          .execute();
        for (const row of due) {
          const claimed = await database
            .updateTable("mail_outbox")
            .set({ status: "sending", next_attempt_at: now() })
            .where("id", "=", row.id)
            .where("status", "in", ["pending", "sending"])
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) continue;
          try {
            await deliver(row);
            await database
              .updateTable("mail_outbox")
              .set({ status: "sent", sent_at: now(), attempts: row.attempts + 1, last_error: null })
              .where("id", "=", row.id)
              .execute();
            sent++;
          } catch (error) {
            const attempts = row.attempts + 1;
            const backoffMs = Math.min(2 ** attempts * 30_000, 6 * 60 * 60_000);
            await database
              .updateTable("mail_outbox")
              .set({
                status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
                attempts,
                last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
                next_attempt_at: new Date(Date.now() + backoffMs).toISOString(),
              })
              .where("id", "=", row.id)
              .execute();
          }
        }
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
