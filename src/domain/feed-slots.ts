import { parseStamp, toStamp } from "../shared/timestamps.js";

// GDELT's feed: a GKG file every 15 minutes, named by its slot (`YYYYMMDDHHMMSS`), and a translingual one beside
// it. The lists (`lastupdate.txt`, `masterfilelist.txt` and their `-translation` twins) give each file as
// `<bytes> <md5> <url>`.

export const SLOT_KINDS = ["gkg", "translation"] as const;
export type SlotKind = (typeof SLOT_KINDS)[number];

/**
 * A slot's state in the ledger: `pending` (listed, not ingested yet, or being retried), `ingested` (every record
 * written, size and md5 checked), `failed` (the file never matched its listed size or md5, or could not be read,
 * within the attempts allowed), `missing` (not listed where the master list should have it, or listed but never
 * served within the limit).
 */
export const SLOT_STATUSES = ["pending", "ingested", "failed", "missing"] as const;
export type SlotStatus = (typeof SLOT_STATUSES)[number];

export const SLOT_MS = 15 * 60_000;

/** The first slot of GDELT 2.1's master list. */
export const FIRST_SLOT = "20150218230000";

/** One file as a list gives it. */
export interface ListedFile {
  slot: string;
  kind: SlotKind;
  bytes: number;
  md5: string;
  url: string;
}

const GKG_FILE = /\/(\d{14})\.(translation\.)?gkg\.csv\.zip$/i;

/**
 * The GKG files of a list's text (export and mentions files are left out); malformed lines are skipped, a feed list
 * is not ours to refuse.
 */
export function parseFileList(text: string): ListedFile[] {
  const files: ListedFile[] = [];
  for (const line of text.split("\n")) {
    const [bytes, md5, url] = line.trim().split(/\s+/);
    if (bytes === undefined || md5 === undefined || url === undefined) continue;
    const name = GKG_FILE.exec(url);
    if (!name || !/^\d+$/.test(bytes) || !/^[0-9a-f]{32}$/i.test(md5)) continue;
    const slot = name[1] as string;
    if (!isSlot(slot)) continue;
    files.push({ slot, kind: name[2] ? "translation" : "gkg", bytes: Number(bytes), md5: md5.toLowerCase(), url });
  }
  return files;
}

/** A real instant on a 15-minute boundary. */
export function isSlot(stamp: string): boolean {
  const ms = parseStamp(stamp);
  return ms !== undefined && ms % SLOT_MS === 0;
}

/** Every slot from `first` to `last`, both included, oldest first. */
export function slotsBetween(first: string, last: string): string[] {
  const from = parseStamp(first);
  const to = parseStamp(last);
  if (from === undefined || to === undefined) return [];
  const out: string[] = [];
  for (let ms = Math.ceil(from / SLOT_MS) * SLOT_MS; ms <= to; ms += SLOT_MS) out.push(toStamp(ms));
  return out;
}

/** The list file naming a kind's newest slot, and the one naming all of them. */
export function listNames(kind: SlotKind): { latest: string; master: string } {
  return kind === "gkg"
    ? { latest: "lastupdate.txt", master: "masterfilelist.txt" }
    : { latest: "lastupdate-translation.txt", master: "masterfilelist-translation.txt" };
}
