import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { loadConfig } from "../../src/config/config.js";
import { createContainer } from "../../src/container.js";

// `newsindex users create --tenant T --email E`: a console user with a
// one-time password printed once, which then signs in.

const dataDir = mkdtempSync(join(tmpdir(), "newsindex-users-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await run([...args, "--data-dir", dataDir], {
    env: { ...process.env, LOG_LEVEL: "silent" },
    out: (text) => stdout.push(`${text}\n`),
    err: (text) => stderr.push(`${text}\n`),
  });
  return { status, stdout: stdout.join(""), stderr: stderr.join("") };
}

describe("newsindex users create", () => {
  it("prints a one-time password that signs in to the console, once per email", async () => {
    expect((await cli(["tenants", "create", "acme", "--plan", "build"])).status).toBe(0);
    const created = await cli(["users", "create", "--tenant", "acme", "--email", "Ops@Acme.example"]);
    expect(created.status).toBe(0);
    expect(created.stdout).toContain("Created console user ops@acme.example for tenant acme.");
    const password = created.stdout.trim().split("\n").pop() ?? "";
    expect(password).toMatch(/^[\w-]{20}$/);

    const again = await cli(["users", "create", "--tenant", "acme", "--email", "ops@acme.example"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("exists already");
    expect((await cli(["users", "create", "--tenant", "nobody", "--email", "x@acme.example"])).status).toBe(1);
    expect((await cli(["users", "create", "--tenant", "acme"])).status).toBe(2);

    const container = createContainer(loadConfig({}, { dataDir, logLevel: "silent" }));
    try {
      const signed = await container.console.sessions.signInUser("ops@acme.example", password);
      expect(signed.viewer.tenant?.name).toBe("acme");
      await expect(container.console.sessions.signInUser("ops@acme.example", `${password}x`)).rejects.toThrow(
        "The email or the password is not right.",
      );
    } finally {
      await container.close();
    }
  });
});
