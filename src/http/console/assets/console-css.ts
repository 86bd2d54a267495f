// The console's stylesheet: system fonts only (nothing fetched), contrast of
// at least 4.5:1 for text, a visible focus ring for keyboard use.

export const CONSOLE_CSS = `
:root { --ink: #1b1f24; --muted: #4a5360; --line: #c9d1d9; --bg: #ffffff; --panel: #f4f6f8; --accent: #0b5cad; --danger: #a4161a; --ok: #1e6b33; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 10; }
header { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; padding: 10px 20px; background: #0d2538; color: #fff; }
header a { color: #fff; text-decoration: none; padding: 4px 8px; border-radius: 4px; }
header a[aria-current="page"] { background: #24557a; }
header .brand { font-weight: 700; margin-right: 12px; }
header .who { margin-left: auto; font-size: 14px; }
header form { margin: 0; }
header button { background: transparent; color: #fff; border: 1px solid #8fb3cf; }
main { max-width: 1100px; margin: 0 auto; padding: 20px; }
h1 { font-size: 24px; margin: 8px 0 16px; }
h2 { font-size: 18px; margin: 24px 0 8px; }
form.panel, section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 12px 0; }
.fields { display: flex; flex-wrap: wrap; gap: 12px 16px; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: 4px; max-width: 320px; }
label { font-weight: 600; font-size: 14px; }
.field small, .hint { font-weight: 400; color: var(--muted); font-size: 13px; }
input, select, button, textarea { font: inherit; padding: 6px 8px; border: 1px solid #6b7785; border-radius: 4px; background: #fff; color: var(--ink); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; font-weight: 600; }
button.danger { background: var(--danger); border-color: var(--danger); }
button.plain { background: #fff; color: var(--accent); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); }
td form { display: inline-flex; gap: 6px; align-items: flex-end; margin: 0 4px 0 0; }
td label { font-size: 12px; align-self: center; }
td input[type="number"] { width: 6em; }
.alert { border-left: 4px solid var(--danger); background: #fbeaea; padding: 8px 12px; margin: 12px 0; }
.notice { border-left: 4px solid var(--ok); background: #e9f5ec; padding: 8px 12px; margin: 12px 0; }
.secret { font-family: ui-monospace, Menlo, Consolas, monospace; width: min(100%, 560px); }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.figures dt { font-weight: 600; }
dl.figures dd { margin: 0; }
table.figures { width: auto; min-width: 360px; }
table.figures th { background: transparent; padding-right: 24px; }
table.figures caption { text-align: left; }
.chart { margin: 12px 0; }
.results li { margin: 6px 0; }
.meta { color: var(--muted); font-size: 13px; }
.status-revoked, .status-expired { color: var(--danger); }
`;
