/** Runs async tasks one at a time in arrival order, so concurrent writes never interleave. */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Run `task` after every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
