import crypto from "node:crypto";
import bcrypt from "bcryptjs";
import { MAX_PASSWORD_BYTES } from "~/domain/validation";

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, 10);
}

/** bcrypt only reads the first 72 bytes, so longer passwords never match (sign-up refuses them). */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) return Promise.resolve(false);
  return bcrypt.compare(password, hash);
}

/** A URL-safe random token of 256 bits. */
export function generateToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256, so a leaked database holds no usable link. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
