import crypto from "node:crypto";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

/** DECISIONS §5: an enforcing CSP with a per-request nonce, no framing, nosniff, a referrer policy. */
export function setSecurityHeaders(headers: Headers, nonce?: string): void {
  const scriptSrc = nonce ? `'self' 'nonce-${nonce}'` : "'self'";
  headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  // Pages carry personal data once signed in; no browser or proxy may keep a copy.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-store");
}
