// Preloaded into a server under test (`node --import ./bench/scale/loop-usage.mjs ...`; plain JavaScript, so the
// server runs as built, without a TypeScript loader): on SIGUSR2 it prints to stderr how busy the event loop was
// since the last SIGUSR2 (utilisation 0 to 1, and the busy ms) and how late its timers ran (the loop's delay, p50 /
// p99 / max in ms: how long a request arriving then waits for the loop), so a black-box bench reads both for exactly
// its measured window without touching the server's code. Worker threads load it too, and get no signals.
import { isMainThread } from "node:worker_threads";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let since = performance.eventLoopUtilization();
  process.on("SIGUSR2", () => {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, since);
    since = now;
    const ms = (ns) => ns / 1e6;
    const line = {
      eventLoopUtilization: window.utilization,
      activeMs: window.active,
      delayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    };
    delay.reset();
    process.stderr.write(`${JSON.stringify(line)}\n`);
  });
}
