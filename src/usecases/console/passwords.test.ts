import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, verifyPassword } from "./passwords.js";

describe("console passwords", () => {
  it("verifies the password a hash was made from, and no other", async () => {
    const password = generatePassword();
    const stored = await hashPassword(password);
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain(password);
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword(`${password}x`, stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts each hash, and refuses a stored value of another format", async () => {
    expect(await hashPassword("same password")).not.toBe(await hashPassword("same password"));
    expect(await verifyPassword("x", "plain-text")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$2b$10$abc")).toBe(false);
  });

  it("makes one-time passwords of 20 random characters", () => {
    const made = new Set(Array.from({ length: 50 }, generatePassword));
    expect(made.size).toBe(50);
    for (const p of made) expect(p).toMatch(/^[\w-]{20}$/);
  });
});
