import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { StreamedBody } from "../app/operation.js";

// A streamed operation's body as the response's payload. It is read one chunk
// ahead of the socket, so what waits in memory is a chunk or two however slow
// the client; and the body is told of each chunk once the response has
// written it (`written`), so the memory it is in can be filled again.
//
// A chunk leaves the payload's buffer only for the response's write, and the
// response has written everything given to it once its `writableLength` is
// 0: then every chunk read from the body but the ones still in the payload's
// buffer is written. That is checked before each chunk is read from the body
// and whenever the response drains.

export function streamedPayload(body: StreamedBody, res: ServerResponse): Readable {
  const { lines, written } = body;
  if (written === undefined) return Readable.from(lines, { highWaterMark: 1 });
  const source = lines[Symbol.asyncIterator]();
  // Read from the body and not yet told of, oldest first.
  const unsettled: Uint8Array[] = [];
  const settle = (): void => {
    if (res.writableLength > 0) return;
    for (const chunk of unsettled.splice(0, unsettled.length - payload.readableLength)) written(chunk);
  };
  const tracked: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      settle();
      const result = await source.next();
      if (result.done !== true) unsettled.push(result.value);
      return result;
    },
    async return() {
      return (await source.return?.()) ?? { done: true, value: undefined };
    },
  };
  const payload = Readable.from(tracked, { highWaterMark: 1 });
  res.on("drain", settle);
  return payload;
}
