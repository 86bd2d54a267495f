import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CONSOLE_CSS } from "./assets/console-css.js";
import { USAGE_CHART_JS } from "./assets/usage-chart-js.js";

// Everything the console's pages load, served from its own origin: htmx and
// uPlot from the installed packages, read once at start; no CDN, no font host.

export interface Asset {
  type: string;
  body: string;
}

const require = createRequire(import.meta.url);

function packaged(specifier: string, type: string): Asset {
  return { type, body: readFileSync(require.resolve(specifier), "utf8") };
}

export function loadAssets(): Map<string, Asset> {
  return new Map<string, Asset>([
    ["htmx.min.js", packaged("htmx.org/dist/htmx.min.js", "text/javascript; charset=utf-8")],
    ["uPlot.iife.min.js", packaged("uplot/dist/uPlot.iife.min.js", "text/javascript; charset=utf-8")],
    ["uPlot.min.css", packaged("uplot/dist/uPlot.min.css", "text/css; charset=utf-8")],
    ["console.css", { type: "text/css; charset=utf-8", body: CONSOLE_CSS }],
    ["usage-chart.js", { type: "text/javascript; charset=utf-8", body: USAGE_CHART_JS }],
  ]);
}
