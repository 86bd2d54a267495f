import { PLAN_IDS } from "../domain/plans.js";

export const USAGE = `Usage:
  newsindex serve --follow [BASE] [--no-translation] [--data-dir DIR] [--port N] [--host H]
                   serve, and follow GDELT's feed at BASE (default http://data.gdeltproject.org/gdeltv2/)
  newsindex follow [BASE] [--since STAMP] [--until STAMP] [--no-translation] [--data-dir DIR]
                   one round of the follower; with --since, catch up that range from the master lists
                   (STAMP: YYYY-MM-DD or YYYYMMDDHHMMSS), re-trying failed and missing slots
  newsindex feed   [--json] [--data-dir DIR]   the slot ledger, and the missing and failed slots
  newsindex ingest [--data-dir DIR] FILE...     ingest GKG 2.1 files (.csv, .csv.gz, .csv.zip, BigQuery CSV)
  newsindex embed  [--data-dir DIR]               embed the articles not yet embedded (semantic ranking); resumable
  newsindex serve  [--data-dir DIR] [--port N] [--host H] [--now YYYYMMDDHHMMSS]
                   --now: behave as of that UTC instant (the clock runs on from there): replay an archive as if live
  newsindex start  [--data-dir DIR] [--port N] [--host H]
                   first run: ingest the bundled sample and print a demo key; then serve
  newsindex reindex [--data-dir DIR] [--batch N]
                   derived fields (events-v1, geo-v1, amounts-v1) and the time tallies /aggregate reads, for
                   monthly indexes built without them, from their stored articles, N (default 1000) per
                   transaction; resumes where a killed run stopped; the server keeps answering meanwhile

  newsindex export [--data-dir DIR] [--q WORDS] [--FILTER VALUE ...] [--view compact] [--resume-after ID] > FILE
                   every matching article as NDJSON, then a manifest line (GET /export's lines, not charged);
                   filters are GET /export's parameters; a progress bar on stderr

  newsindex indices ahead [--months N]       the scaled index: this month's index and the N next (default 1), from
                   the template, before writes create them
  newsindex indices retain --keep-months N [--dry-run]
                   drop the monthly indices older than this month and the N-1 before it
  newsindex indices snapshot --repo DIR [--name NAME]   every monthly index into the filesystem repository DIR
                   (under each node's path.repo); newsindex indices snapshots --repo DIR lists them
  newsindex indices restore NAME --repo DIR [--month YYYYMM]   a snapshot's months (or one), replacing them

  newsindex tenants create NAME --plan PLAN [--json]        PLAN: ${PLAN_IDS.join(", ")}
  newsindex tenants list [--json]
  newsindex tenants set-plan NAME PLAN
  newsindex tenants suspend NAME | resume NAME

  newsindex keys create --tenant NAME [--plan PLAN] [--ttl-hours N] [--json]
                   a new tenant needs --plan; --ttl-hours (at most 24) issues a short-lived key
  newsindex keys list [--tenant NAME] [--json]
  newsindex keys rotate KEY_ID [--grace-minutes N] [--json]
                   issues the new key first; the old one works N more minutes (default 15; 0 revokes it now)
  newsindex keys revoke KEY_ID

  newsindex users create --tenant NAME --email EMAIL [--json]
                   a console user of the tenant; prints a one-time password, shown once
  newsindex users list [--json]

Environment: NEWSINDEX_DATA_DIR (default ./var), PORT (8080), HOST (127.0.0.1), LOG_LEVEL (info),
NEWSINDEX_ADMIN_TOKEN (enables the operator API under /admin; the console's operator sign-in),
NEWSINDEX_CONSOLE_PORT (8081; off: no console), NEWSINDEX_TRUST_PROXY (off; on: behind an https proxy), NEWSINDEX_WATCHES (on; off answers watch calls
unsupported), NEWSINDEX_EMBEDDING_MODEL_DIR (another model directory of the shipped model's format),
NEWSINDEX_EMBED_IN_SERVER (on; off leaves embedding to 'newsindex embed'), NEWSINDEX_READ_THREADS (cores, at most
4: heavy index reads at once), NEWSINDEX_FOLLOW_POLL_SECONDS (60), NEWSINDEX_FOLLOW_ATTEMPTS (3),
NEWSINDEX_FOLLOW_MISSING_AFTER_SECONDS (3600), NEWSINDEX_DRAIN_SECONDS (7; 0: no balancer, stop at once).
See docs/operators.md.`;

/** Wrong words on the command line: exit 2 with the usage. */
export class UsageError extends Error {}
