import { describe, expect, it } from "vitest";
import { generateToken, hashPassword, hashToken, verifyPassword } from "~/services/crypto.server";
import { newPasswordField } from "~/domain/validation";

describe("passwords", () => {
  it("hashes with bcrypt and verifies only the right password", async () => {
    const hash = await hashPassword("Clave-segura-123");
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    expect(hash).not.toContain("Clave-segura-123");
    expect(await verifyPassword("Clave-segura-123", hash)).toBe(true);
    expect(await verifyPassword("clave-segura-123", hash)).toBe(false);
  });

  it("never accepts a password longer than 72 bytes (bcrypt would truncate it)", async () => {
    const long = "ñ".repeat(40); // 80 bytes
    expect(newPasswordField.safeParse(long).success).toBe(false);
    const hash = await hashPassword(long.slice(0, 36)); // the first 72 bytes
    expect(await verifyPassword(long, hash)).toBe(false);
  });

  it("requires at least six characters", () => {
    expect(newPasswordField.safeParse("12345").success).toBe(false);
    expect(newPasswordField.safeParse("123456").success).toBe(true);
  });
});

describe("tokens", () => {
  it("are 256-bit, URL-safe and different every time", () => {
    const tokens = new Set(Array.from({ length: 50 }, generateToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
  it("are stored as SHA-256", () => {
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
