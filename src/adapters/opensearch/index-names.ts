// The names this deployment owns in a cluster, all under its prefix
// (NEWSINDEX_OPENSEARCH_PREFIX), so several deployments or test runs can share
// one cluster:
//
//   <prefix>-articles-YYYYMM   one index per calendar month of collection
//   <prefix>-articles          the read alias over every monthly index
//   <prefix>-articles          the index template each monthly index is created from

const MONTH = /^\d{6}$/;

export class IndexNames {
  constructor(readonly prefix: string) {}

  /** The read alias over every monthly article index. */
  get articles(): string {
    return `${this.prefix}-articles`;
  }

  /** The index template the monthly article indices are created from. */
  get articleTemplate(): string {
    return `${this.prefix}-articles`;
  }

  /** The pattern matching every monthly article index (and only those). */
  get articlePattern(): string {
    return `${this.prefix}-articles-*`;
  }

  /** The monthly index of `month` (`YYYYMM`). */
  articleIndex(month: string): string {
    if (!MONTH.test(month)) throw new Error(`not a month: ${month}`);
    return `${this.prefix}-articles-${month}`;
  }

  /** The month of a monthly index's name; undefined for any other name. */
  monthOf(index: string): string | undefined {
    const start = `${this.prefix}-articles-`;
    if (!index.startsWith(start)) return undefined;
    const month = index.slice(start.length);
    return MONTH.test(month) ? month : undefined;
  }
}
