// GDELT's feed over HTTP (or a mirror in its layout): list files read line by line, data files downloaded to
// disk. The GDELT adapter implements it with timeouts and bounded retries; the follower never sees HTTP.

/** What arrived for one file, as downloaded. */
export type Download =
  | { found: true; bytes: number; md5: string }
  /** The server answered 404: listed but not published yet (or gone). */
  | { found: false; status: number };

export interface FeedSource {
  /** Where the feed is read from (the base URL), for messages. */
  readonly base: string;
  /** The lines of a list file under the base (`lastupdate.txt`, `masterfilelist.txt`...), streamed. Throws when unreadable. */
  lines(name: string): AsyncIterable<string>;
  /**
   * Streams a data file under the base to `dest`, measuring its size and md5 on the way; stops (a mismatch) once
   * it passes `maxBytes`. Throws on a network failure or an unexpected status, after its retries.
   */
  download(name: string, dest: string, maxBytes: number): Promise<Download>;
}
