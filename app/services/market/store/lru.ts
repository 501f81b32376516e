// A bounded map of promised values, least recently used first out: what the read services keep
// per store version (company headers and the like). A rejected promise is dropped, so a failure
// is retried on the next call rather than remembered.

export class PromiseLru<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('An LRU needs room for at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, computing and keeping it when absent. */
  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
