/**
 * Mail the server wrote to MAIL_DIR (no SMTP in tests), read back for the journeys and the
 * hostile suite alike.
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import type { Server } from "./server";

// Files are named `<ms>-<outbox id>-<safe address>.eml`.

function decodeQuotedPrintable(input: string): string {
  const bytes: number[] = [];
  const soft = input.replace(/=\r?\n/g, "");
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

export interface Mail {
  file: string;
  to: string;
  subject: string;
  body: string;
}

const MAIL_FILE = /^(\d+)-(\d+)-(.+)\.eml$/;

function parseMail(file: string, raw: string): Mail {
  const to = /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
  const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  // Adjacent encoded words are one string (RFC 2047); join them before decoding.
  const subject = subjectLine
    .replace(/\r?\n[ \t]/g, " ")
    .replace(/\?=\s+=\?utf-8\?Q\?/gi, "")
    .replace(/=\?utf-8\?Q\?(.*?)\?=/gi, (_, q: string) =>
      decodeQuotedPrintable(q.replace(/_/g, " ")),
    )
    .replace(/=\?utf-8\?B\?(.*?)\?=/gi, (_, b: string) =>
      Buffer.from(b, "base64").toString("utf8"),
    );
  return { file, to, subject, body: decodeQuotedPrintable(raw) };
}

// Parsed mails per mail folder: a poll reads only the files that appeared since the last one.
const mailCache = new Map<string, Map<string, Mail>>();

/** Every mail written to exactly `to`, oldest first, with subject and body decoded. */
export function readMails(server: Pick<Server, "mailDir">, to: string): Mail[] {
  if (!fs.existsSync(server.mailDir)) return [];
  let cache = mailCache.get(server.mailDir);
  if (!cache) mailCache.set(server.mailDir, (cache = new Map()));
  const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const mails: { at: number; id: number; mail: Mail }[] = [];
  for (const file of fs.readdirSync(server.mailDir)) {
    const match = MAIL_FILE.exec(file);
    if (!match || match[3] !== safeTo) continue;
    let mail = cache.get(file);
    if (!mail) {
      mail = parseMail(file, fs.readFileSync(path.join(server.mailDir, file), "utf8"));
      cache.set(file, mail);
    }
    if (mail.to.toLowerCase() !== to.toLowerCase()) continue;
    mails.push({ at: Number(match[1]), id: Number(match[2]), mail });
  }
  return mails.sort((a, b) => a.at - b.at || a.id - b.id).map((m) => m.mail);
}

/**
 * Waits until a mail for exactly `to` arrives whose subject is `subject` (a string: the whole
 * subject) or matches it (a RegExp). The server delivers right after the commit; on a busy
 * machine that can take a while, hence the generous wait for the condition.
 */
export async function waitForMail(
  server: Pick<Server, "mailDir">,
  to: string,
  subject: string | RegExp,
): Promise<Mail> {
  const matches = (m: Mail) =>
    typeof subject === "string" ? m.subject === subject : subject.test(m.subject);
  let found: Mail | undefined;
  await expect
    .poll(() => (found = readMails(server, to).find(matches)), {
      message: `correo "${subject}" para ${to}`,
      timeout: 30_000,
      intervals: [50, 100, 250],
    })
    .toBeTruthy();
  return found!;
}

export function linkIn(mail: Mail, pathPrefix: string): string {
  const match = new RegExp(
    `https?://[^\\s"<>]+${pathPrefix.replace(/[/?]/g, "\\$&")}[^\\s"<>]*`,
  ).exec(mail.body);
  if (!match)
    throw new Error(`No hay enlace ${pathPrefix} en el correo "${mail.subject}":\n${mail.body}`);
  return match[0].replace(/&amp;/g, "&");
}
