import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// OpenSearch 3.x needs Java 21 or later; the machine's default Java may be older.
// Finds the newest JDK installed side by side (e.g. under /usr/lib/jvm) from
// each one's `release` file, so no single path is assumed.

export interface Jdk {
  home: string;
  major: number;
}

/** The major version of the JDK at `home` (from its `release` file), or undefined when it is not one. */
export function jdkAt(home: string): Jdk | undefined {
  const release = join(home, "release");
  if (!existsSync(join(home, "bin", "java")) || !existsSync(release)) return undefined;
  const version = /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(release, "utf8"))?.[1];
  if (!version) return undefined;
  // "1.8.0_412" is Java 8; "21.0.5" and "25" are 21 and 25.
  const parts = version.split(/[._+-]/).map(Number);
  const major = parts[0] === 1 ? parts[1] : parts[0];
  return major === undefined || Number.isNaN(major) ? undefined : { home, major };
}

/** The newest JDK of at least `minMajor` in any of `roots`. */
export function findJdk(minMajor: number, roots: readonly string[] = ["/usr/lib/jvm"]): Jdk | undefined {
  const found: Jdk[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const name of readdirSync(root)) {
      const jdk = jdkAt(join(root, name));
      if (jdk && jdk.major >= minMajor) found.push(jdk);
    }
  }
  return found.sort((a, b) => b.major - a.major || a.home.localeCompare(b.home))[0];
}
