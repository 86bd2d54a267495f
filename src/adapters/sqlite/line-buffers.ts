// The buffers an export's lines are written into: shared with the read
// threads, which encode a read's documents straight into one
// (partition-export.ts), and handed back once nothing holds them (the walk has
// merged past their rows and the stream has written the batches viewing
// them), to be filled again. An export thus allocates no memory per batch for
// the garbage collector to free late: what it holds is a fixed set of buffers,
// whatever its size.

/** One buffer and what holds it: the rows read into it, and each batch of them not yet written. */
export class LineBuffer {
  private holds = 1;

  constructor(
    readonly shared: SharedArrayBuffer,
    private readonly home: LineBuffers,
  ) {}

  hold(): void {
    // Held again once given back, it would be filled while viewed.
    if (this.holds === 0) throw new Error("a line buffer was held after it was given back");
    this.holds++;
  }

  /** Lets go of one hold; the last one gives the buffer back to be filled again. */
  drop(): void {
    if (--this.holds === 0) this.home.giveBack(this.shared);
  }
}

export class LineBuffers {
  private readonly free: SharedArrayBuffer[] = [];
  private made = 0;

  /** Buffers of `size` bytes, at most `most` of them. */
  constructor(
    private readonly size: number,
    private readonly most: number,
  ) {}

  /** A buffer no one holds, held once; undefined while all `most` are held (the read's lines then take memory of their own). */
  take(): LineBuffer | undefined {
    let shared = this.free.pop();
    if (shared === undefined && this.made < this.most) {
      this.made++;
      shared = new SharedArrayBuffer(this.size);
    }
    return shared && new LineBuffer(shared, this);
  }

  /** Buffers made so far (for tests: what an export holds). */
  get count(): number {
    return this.made;
  }

  giveBack(shared: SharedArrayBuffer): void {
    this.free.push(shared);
  }
}
