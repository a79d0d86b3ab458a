import crypto from "node:crypto";
import { db } from "./db.server";
import { cookieSecret } from "./session.server";
import { paths } from "~/utils/paths";

/** File links carry an expiry and an HMAC bound to the viewer, on top of the permission check. */
const SIGNED_URL_TTL_SECONDS = 3600;

async function signature(pathname: string, expires: number, userId: number): Promise<string> {
  const secret = await cookieSecret(db);
  return crypto
    .createHmac("sha256", secret)
    .update(`${pathname}|${expires}|${userId}`)
    .digest("base64url");
}

/** A link to `pathname` valid for one hour for this user only. */
async function signedPath(
  pathname: string,
  userId: number,
  {
    inline = false,
    ttlSeconds = SIGNED_URL_TTL_SECONDS,
  }: { inline?: boolean; ttlSeconds?: number } = {},
): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const params = new URLSearchParams({
    exp: String(expires),
    sig: await signature(pathname, expires, userId),
  });
  if (inline) params.set("inline", "1");
  return `${pathname}?${params}`;
}

export async function verifySignedRequest(request: Request, userId: number): Promise<boolean> {
  const url = new URL(request.url);
  const expires = Number(url.searchParams.get("exp"));
  const sig = url.searchParams.get("sig") ?? "";
  if (!Number.isInteger(expires) || expires < Math.floor(Date.now() / 1000)) return false;
  const expected = Buffer.from(await signature(url.pathname, expires, userId));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Download and open (inline) links for a file route such as "/files/requests/12". */
export async function fileLinks(
  pathname: string,
  userId: number,
): Promise<{ download: string; open: string }> {
  return {
    download: await signedPath(pathname, userId),
    open: await signedPath(pathname, userId, { inline: true }),
  };
}

/** Download links of the superseded versions of an official quote, by version id. */
export async function versionPdfLinks(
  versions: readonly { id: number; superseded_at: string | null }[],
  userId: number,
): Promise<Record<number, string>> {
  const links = await Promise.all(
    versions
      .filter((v) => v.superseded_at !== null)
      .map(async (v) => [v.id, await signedPath(paths.files.officialQuoteVersion(v.id), userId)]),
  );
  return Object.fromEntries(links);
}
