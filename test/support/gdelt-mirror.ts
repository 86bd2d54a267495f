import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { ZipFile } from "yazl";
import { SLOT_MS } from "../../src/domain/feed-slots.js";
import { parseStamp, toStamp } from "../../src/shared/timestamps.js";
import { realRows } from "./gkg-fixtures.js";

// A mirror of GDELT's feed in its layout, on loopback: `<base>lastupdate.txt`, `masterfilelist.txt`, their
// `-translation` twins and the `.gkg.csv.zip` files they list. Each slot's files are cut from the real 2023 batch:
// a slice of its records with the record id and V2.1DATE moved to the slot, every other column as published.

const COL_ID = 0;
const COL_DATE = 1;

export interface MirrorSlot {
  slot: string;
  /** The record ids of its GKG file, and of its translingual file. */
  gkgIds: string[];
  translationIds: string[];
}

interface Served {
  body: Buffer;
  /** What the lists say; the real figures unless a test lies. */
  listedMd5: string;
  listedBytes: number;
}

/** `count` consecutive slots from `first`, `perSlot` real records each (translingual: a third as many). */
export function cutSlots(
  first: string,
  count: number,
  perSlot: number,
): Array<MirrorSlot & { gkg: string[][]; translation: string[][] }> {
  const rows = realRows();
  const start = parseStamp(first) as number;
  const out = [];
  let next = 0;
  const take = (n: number): string[][] => Array.from({ length: n }, () => [...(rows[next++ % rows.length] as string[])]);
  for (let i = 0; i < count; i++) {
    const slot = toStamp(start + i * SLOT_MS);
    const gkg = take(perSlot).map((fields, n) => moved(fields, `${slot}-${n}`, slot));
    const translation = take(Math.ceil(perSlot / 3)).map((fields, n) => moved(fields, `${slot}-T${n}`, slot));
    out.push({
      slot,
      gkg,
      translation,
      gkgIds: gkg.map((f) => f[COL_ID] as string),
      translationIds: translation.map((f) => f[COL_ID] as string),
    });
  }
  return out;
}

function moved(fields: string[], id: string, slot: string): string[] {
  fields[COL_ID] = id;
  fields[COL_DATE] = slot;
  return fields;
}

/** A GDELT-style zip: one `.csv` entry of tab-separated rows. */
export async function zipRows(entryName: string, rows: readonly string[][]): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(rows.map((r) => r.join("\t")).join("\n") + "\n"), entryName, { mtime: new Date(0) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function md5(body: Buffer): string {
  return createHash("md5").update(body).digest("hex");
}

export class GdeltMirror {
  /** Published files by name. */
  private readonly files = new Map<string, Served>();
  /** Published slots, oldest first. */
  private readonly slots: string[] = [];
  /** Names answering 404 although listed. */
  readonly withheld = new Set<string>();
  /** Slots left out of the master lists (a hole in GDELT's own record). */
  readonly unlisted = new Set<string>();
  /** GET requests by path. */
  readonly requests = new Map<string, number>();
  /** Every request's path, in order. */
  readonly log: string[] = [];
  /** Lags each data file's body by this long (a slow download, to kill a follower mid-slot). */
  slowBodyMs = 0;
  private server: Server | undefined;
  base = "";

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      this.log.push(path);
      const name = path.replace(/^\/gdeltv2\//, "");
      const text = this.list(name);
      if (text !== undefined) {
        res.writeHead(200, { "content-type": "text/plain" }).end(text);
        return;
      }
      const file = this.files.get(name);
      if (file === undefined || this.withheld.has(name)) {
        res.writeHead(404).end("Not Found");
        return;
      }
      res.writeHead(200, { "content-type": "application/zip", "content-length": file.body.length });
      if (this.slowBodyMs === 0) {
        res.end(file.body);
        return;
      }
      // Half now, the rest later: the client is mid-download meanwhile.
      const half = Math.floor(file.body.length / 2);
      res.write(file.body.subarray(0, half));
      setTimeout(() => res.end(file.body.subarray(half)), this.slowBodyMs).unref();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("mirror did not bind");
    this.base = `http://127.0.0.1:${address.port}/gdeltv2/`;
    return this.base;
  }

  /** Publishes a slot's two files; the lists name it from now on. */
  async publish(slot: MirrorSlot & { gkg: string[][]; translation: string[][] }): Promise<void> {
    await this.put(`${slot.slot}.gkg.csv.zip`, await zipRows(`${slot.slot}.gkg.csv`, slot.gkg));
    await this.put(`${slot.slot}.translation.gkg.csv.zip`, await zipRows(`${slot.slot}.translation.gkg.csv`, slot.translation));
    if (!this.slots.includes(slot.slot)) this.slots.push(slot.slot);
    this.slots.sort();
  }

  /** Serves `body` under `name`, listed with its true figures unless `listed` says otherwise. */
  async put(name: string, body: Buffer, listed: { md5?: string; bytes?: number } = {}): Promise<void> {
    this.files.set(name, { body, listedMd5: listed.md5 ?? md5(body), listedBytes: listed.bytes ?? body.length });
  }

  /** Serves other bytes under `name` while the lists keep its listed figures: a corrupted copy, or the true one again. */
  serveBytes(name: string, body: Buffer): void {
    const file = this.files.get(name);
    if (!file) throw new Error(`${name} not published`);
    this.files.set(name, { ...file, body });
  }

  count(name: string): number {
    return this.requests.get(`/gdeltv2/${name}`) ?? 0;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private list(name: string): string | undefined {
    const translation = name.includes("translation");
    if (name === "lastupdate.txt" || name === "lastupdate-translation.txt") {
      const newest = this.slots[this.slots.length - 1];
      return newest === undefined ? "" : this.lines(newest, translation);
    }
    if (name === "masterfilelist.txt" || name === "masterfilelist-translation.txt") {
      return this.slots
        .filter((s) => !this.unlisted.has(s))
        .map((s) => this.lines(s, translation))
        .join("");
    }
    return undefined;
  }

  /** A slot's three lines, as GDELT writes them: export and mentions (never fetched here), then the GKG file. */
  private lines(slot: string, translation: boolean): string {
    const t = translation ? "translation." : "";
    const gkg = this.files.get(`${slot}.${t}gkg.csv.zip`);
    if (gkg === undefined) return "";
    return (
      [
        `150383 297a16b493de7cf6ca809a7cc31d0b93 ${this.base}${slot}.${t}export.CSV.zip`,
        `318084 bb27f78ba45f69a17ea6ed7755e9f8ff ${this.base}${slot}.${t}mentions.CSV.zip`,
        `${gkg.listedBytes} ${gkg.listedMd5} ${this.base}${slot}.${t}gkg.csv.zip`,
      ].join("\n") + "\n"
    );
  }
}
