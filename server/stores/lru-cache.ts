/** A Map bounded to `capacity` entries, evicting the least recently used (and telling `onEvict`). */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: V, key: K) => void = () => undefined,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [K, V];
      this.entries.delete(oldestKey);
      this.onEvict(oldest, oldestKey);
    }
  }

  delete(key: K): V | undefined {
    const value = this.entries.get(key);
    this.entries.delete(key);
    return value;
  }

  /** Every value, least recently used first, without touching the order. */
  values(): V[] {
    return [...this.entries.values()];
  }

  /** Removes and returns every value. */
  drain(): V[] {
    const values = [...this.entries.values()];
    this.entries.clear();
    return values;
  }
}
