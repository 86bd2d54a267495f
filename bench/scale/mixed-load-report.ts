import type { MixedLoad } from "./mixed-load.js";

// The mixed-load row as Markdown, one rendering for the scale benchmark and the
// black-box bench, so the two rows read (and compare) alike.

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));

const failures = (f: Record<string, number>): string =>
  Object.keys(f).length === 0
    ? "none"
    : Object.entries(f)
        .map(([status, n]) => `${n} x ${status}`)
        .join(", ");

export function mixedLoadLines(m: MixedLoad): string[] {
  const { plan } = m;
  const row = (label: string, b: MixedLoad["idle"]): string =>
    `| ${label} | ${ms(b.latency.p50)} / ${ms(b.latency.p99)} | ${b.latency.samples} | ${Math.round(b.perSecond)} | ${failures(b.failures)} |`;
  const heavyRows = Object.entries(m.heavyLatency).map(
    ([path, l]) => `| \`${path}\` | ${ms(l.p50)} / ${ms(l.p99)} | ${l.samples} |`,
  );
  return [
    `Mixed load: ${plan.browseConnections} keep-alive connection${plan.browseConnections === 1 ? "" : "s"} browse${plan.browseConnections === 1 ? "s" : ""} (\`${plan.browse}\`, one request at a time, at most every ${plan.browseEveryMs} ms, timed in ms) for ${m.seconds} s (longer until 20 have answered), first alone, then while ${plan.heavyConnections} more connections loop heavy calls, each starting at its own (${plan.heavy.map((p) => `\`${p}\``).join(", ")}; ${m.heavyPerSecond.toFixed(1)} answered per second, failures: ${failures(m.heavyFailures)}).`,
    "",
    "| browse | p50 / p99 | browses timed | browses/s | failures |",
    "|---|---:|---:|---:|---|",
    row(`idle (${plan.browseConnections} connection${plan.browseConnections === 1 ? "" : "s"})`, m.idle),
    row(`under load (+${plan.heavyConnections} heavy connections)`, m.loaded),
    "",
    "| heavy call under load | p50 / p99 | answered |",
    "|---|---:|---:|",
    ...heavyRows,
  ];
}
