import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ExpressionBuilder } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "../../db/schema";
import type { Tx } from "./db.server";
import { db, now, type DB } from "./db.server";
import { appUrl, env } from "./env.server";

/**
 * Outgoing mail goes through the `mail_outbox` table: it is written in the same transaction as the
 * event that causes it, then delivered by `processOutbox`, which retries failures with back-off
 * and gives up at once on a mail the receiving server refuses for good. A pass runs right after the
 * commit (`deliverSoon`) and on every tick of the scheduled-work poller (services/background), which
 * is what sends a mail again once its back-off has passed.
 * Without SMTP_URL a delivered mail is an .eml file in MAIL_DIR.
 */

interface MailMessage {
  to: string;
  subject: string;
  /** Where an answer goes instead of the no-reply sender, e.g. the customer who wrote to us. */
  replyTo?: string;
  /** Plain paragraphs; the HTML version is built from them. */
  paragraphs: string[];
  action?: { label: string; url: string };
}

const BRAND = "CotizaHub";
const MAX_ATTEMPTS = 8;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `body` wrapped in a whole document, so mail clients get the charset, a viewport and a title. */
function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body style="font-family:Arial,sans-serif;color:#0f172a">
${body}
</body>
</html>`;
}

function renderMail(message: MailMessage): { text: string; html: string } {
  const footer = message.replyTo
    ? `${BRAND} · Si respondes a este correo, tu respuesta llega a ${message.replyTo}.`
    : `${BRAND} · Este es un mensaje automático; no respondas a este correo.`;
  const text = [
    ...message.paragraphs,
    ...(message.action ? [`${message.action.label}: ${message.action.url}`] : []),
    "",
    "--",
    footer,
  ].join("\n\n");
  const body = `<h1 style="font-size:20px;color:#1e40af">${BRAND}</h1>
${message.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${
  message.action
    ? `<p><a href="${escapeHtml(message.action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(message.action.label)}</a></p>`
    : ""
}
<p style="color:#64748b;font-size:12px">${escapeHtml(footer)}</p>`;
  return { text, html: htmlDocument(message.subject, body) };
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
      reply_to: message.replyTo ?? null,
      status: "pending",
      next_attempt_at: now(),
    })
    .execute();
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
  replyTo: string | null;
}

/** Hands one mail to the outside world; throws when it was not accepted. */
type MailTransport = (mail: OutgoingMail) => Promise<void>;

function composeMail(mail: OutgoingMail) {
  return {
    from: env.MAIL_FROM,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
}

/** Delivers through the SMTP server at `url` (an SMTP_URL such as smtp://user:pass@host:587). */
function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return async (mail) => {
    await transporter.sendMail(composeMail(mail));
  };
}

/** Writes the mail as an .eml file in MAIL_DIR, for a laptop without a mail server. */
const emlTransport: MailTransport = async (mail) => {
  const info = await emlBuilder.sendMail(composeMail(mail));
  await fs.mkdir(env.mailDir, { recursive: true });
  const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const name = `${Date.now()}-${mail.id}-${safeTo}.eml`;
  const tmp = path.join(env.mailDir, `.${name}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  await fs.writeFile(tmp, info.message as Buffer);
  await fs.rename(tmp, path.join(env.mailDir, name));
};

let configured: MailTransport | undefined;

/** SMTP when SMTP_URL is set, otherwise an .eml file in MAIL_DIR. */
function configuredTransport(): MailTransport {
  configured ??= env.SMTP_URL ? smtpTransport(env.SMTP_URL) : emlTransport;
  return configured;
}

/**
 * A claim not renewed for this long belongs to a crashed worker and may be taken over. A live worker
 * renews its claim every RENEW_CLAIM_MS while its send is under way, however slow the server is, so
 * only a dead worker's claim goes stale and a live one never has its mail sent a second time.
 */
const STALE_CLAIM_MS = 60_000;
const RENEW_CLAIM_MS = 20_000;

/**
 * The receiving server refused this mail for good: a 5xx answer to its recipient (`550 unknown
 * recipient`) or to its content. Trying again cannot help. A 5xx to the connection, the login or the
 * sender is the server refusing our own setup, which an operator can put right, so that mail keeps
 * its back-off like a 4xx or a lost connection.
 */
function isPermanentRejection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { responseCode, command } = error as Error & { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === "number" &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === "RCPT TO" || command === "DATA")
  );
}

/**
 * One pass over the outbox: sends every due mail through `transport`. Each row is claimed with one
 * conditional UPDATE that repeats the "due" test and stamps a claim token, so of any number of
 * workers (processes or connections) exactly one wins a row; finishing a row also requires the token,
 * so a worker whose claim went stale cannot overwrite the newer holder's result.
 */
export async function processOutbox(
  database: DB,
  transport: MailTransport = configuredTransport(),
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
      .returning(["id", "to_address", "reply_to", "subject", "text_body", "html_body", "attempts"])
      .executeTakeFirst();
    if (!row) continue; // another worker claimed it first
    const ours = database
      .updateTable("mail_outbox")
      .where("id", "=", id)
      .where("claim_token", "=", token);
    const renewal = setInterval(() => {
      database
        .updateTable("mail_outbox")
        .set({ claimed_at: now() })
        .where("id", "=", id)
        .where("claim_token", "=", token)
        .execute()
        .catch((error) => console.error("[mail] could not renew a claim", error));
    }, RENEW_CLAIM_MS);
    renewal.unref();
    try {
      try {
        await transport({
          id: row.id,
          to: row.to_address,
          replyTo: row.reply_to,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
        });
      } finally {
        clearInterval(renewal);
      }
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
      const failed = isPermanentRejection(error) || attempts >= MAX_ATTEMPTS;
      const backoffMs = Math.min(2 ** attempts * 30_000, 6 * 60 * 60_000);
      await ours
        .set({
          status: failed ? "failed" : "pending",
          attempts,
          last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
          next_attempt_at: new Date(Date.now() + backoffMs).toISOString(),
          failed_at: failed ? now() : null,
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

/**
 * Delivers due mail from this process, one pass at a time; the promise also covers a pass already
 * under way (e.g. one `deliverSoon` started), so awaiting it lets a short-lived process finish its
 * deliveries before closing the database.
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
