/**
 * Application-level group commit for single-event appends. Every commit of the log costs a
 * round trip, a transaction and a WAL flush; under concurrent load those, not the inserts,
 * are the bill. So appends that arrive while earlier ones are in flight wait in a queue and
 * go together as one statement in one transaction. A lone append goes at once: grouping adds
 * no latency when there is nothing to group.
 *
 * Each append keeps its own expected-revision check: the statement inserts only the rows
 * whose expectation holds and skips (ON CONFLICT DO NOTHING) rows that collide, and the
 * store settles every append that wrote nothing on its own. A group never holds two appends
 * to one stream, so they cannot see each other's revision wrongly.
 */
export interface QueuedAppend<Result> {
  streamId: string;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export class GroupCommit<Item extends QueuedAppend<Result>, Result> {
  private readonly queue: Item[] = [];
  private inFlight = 0;

  constructor(
    private readonly commit: (group: Item[]) => Promise<void>,
    private readonly options: { maxInFlight: number; maxGroup: number },
  ) {}

  submit(item: Item): void {
    this.queue.push(item);
    this.drain();
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const group = this.takeGroup();
      this.inFlight++;
      this.commit(group)
        .catch((error: unknown) => group.forEach((item) => item.reject(error)))
        .finally(() => {
          this.inFlight--;
          this.drain();
        });
    }
  }

  /** The oldest queued appends, at most one per stream (later ones keep their order in the queue). */
  private takeGroup(): Item[] {
    const group: Item[] = [];
    const streams = new Set<string>();
    let kept = 0;
    for (const item of this.queue) {
      if (group.length < this.options.maxGroup && !streams.has(item.streamId)) {
        streams.add(item.streamId);
        group.push(item);
      } else {
        this.queue[kept++] = item;
      }
    }
    this.queue.length = kept;
    return group;
  }
}
