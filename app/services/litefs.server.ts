import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { getInstanceInfoSync, TXID_NUM_COOKIE_NAME } from "litefs-js";
import { handleTransactionalConsistency } from "litefs-js/http";
import { env } from "./env.server";

/**
 * Read replicas with LiteFS on Fly (ADR 0013). Off unless LiteFS's environment is present
 * (LITEFS_DIR, the FUSE folder that holds the database): then exactly one machine, the primary, may
 * write. LiteFS writes the primary's name to `LITEFS_DIR/.primary` on every other machine.
 * - A write request reaching a replica is answered with `fly-replay: instance=<primary>` (Fly's
 *   proxy runs it again on the primary) before anything reads its body, so nothing is written.
 * - So are the few GETs that write (an e-mail verification link, a PDF stored on its first download).
 * - A GET from someone who just wrote carries the primary's transaction number in a cookie; the
 *   replica waits briefly to catch up to it, or replays the GET on the primary.
 * - Background work (jobs, mail, sweeps) runs on the primary only.
 */

export const litefsDir = (): string | undefined => process.env.LITEFS_DIR || undefined;

/** True on a LiteFS replica: the database is read-only here. False without LiteFS. */
export function isReplica(): boolean {
  const dir = litefsDir();
  return dir ? !getInstanceInfoSync(dir).currentIsPrimary : false;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** GET paths whose loaders write (ADR 0004's verification link; PDFs kept on first download). */
const GETS_THAT_WRITE = ["/auth/verify", "/files/official-quotes/", "/files/receipts/"];

function replay(res: ServerResponse, primary: string): void {
  res.writeHead(409, { "fly-replay": `instance=${primary}`, "Content-Length": "0" });
  res.end();
}

/** The primary's transaction number, from LiteFS's `<db>-pos` file ("<txid hex>/<checksum>"). */
function txNumber(dir: string): number {
  try {
    const pos = fs.readFileSync(path.join(dir, `${path.basename(env.databasePath)}-pos`), "utf8");
    return parseInt(pos.trim().split("/")[0], 16) || 0;
  } catch {
    return 0;
  }
}

/** Express-style middleware, mounted by server.js after the edge's guard. */
export async function replicaGuard(
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
): Promise<void> {
  const dir = litefsDir();
  if (!dir) return next();
  // litefs-js reads the database's name from the environment for the position file.
  process.env.DATABASE_FILENAME ??= path.basename(env.databasePath);
  const { currentIsPrimary, primaryInstance } = getInstanceInfoSync(dir);
  const method = req.method ?? "GET";
  if (!currentIsPrimary) {
    const pathname = (req.url ?? "/").split("?")[0];
    if (WRITES.has(method) || GETS_THAT_WRITE.some((p) => pathname.startsWith(p)))
      return replay(res, primaryInstance);
    if (await handleTransactionalConsistency(req, res)) return;
    return next();
  }
  if (WRITES.has(method)) {
    // After the write: the reader's next GET, on any replica, waits for this transaction.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
      if (!res.headersSent) {
        const cookie = `${TXID_NUM_COOKIE_NAME}=${txNumber(dir)}; Path=/; HttpOnly; SameSite=Lax; Secure`;
        const existing = res.getHeader("Set-Cookie");
        res.setHeader("Set-Cookie", [
          ...(existing ? (Array.isArray(existing) ? existing : [String(existing)]) : []),
          cookie,
        ]);
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
  }
  next();
}
