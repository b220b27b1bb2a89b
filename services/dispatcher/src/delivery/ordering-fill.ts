// How full the ordering bucket is, as the join path sees it between reads of the stream: the last
// read (the dispatcher's stream poll every few seconds, and a read of its own at most once a second
// while the bucket is past half full) plus the entries this process added since (new key lines and
// held markers), each counted at the size it writes. Another replica's new lines show at the next read, within a second once it
// matters. Without the count, a burst of new keys between two polls could take the bucket past its
// stop line (ORDERING_BUCKET_FULL) and up to max_bytes, where NATS 2.9 drops the oldest line.

/** Per-message bytes NATS adds to a bucket entry beside its subject and value (headers, sequence, time). */
const ENTRY_OVERHEAD = 48;

export class BucketFill {
  private bytes = 0;
  private maxBytes = 0;
  private readAt = 0;
  private reading = false;

  constructor(
    /** Reads the bucket's stream: bytes held and its max_bytes. */
    private readonly read: () => Promise<{ bytes: number; maxBytes: number }>,
    private readonly now: () => number = Date.now,
    private readonly refreshMs = 1000,
  ) {}

  /** A read of the bucket's stream. */
  set(bytes: number, maxBytes: number): void {
    this.bytes = bytes;
    this.maxBytes = maxBytes;
    this.readAt = this.now();
  }

  /** Bytes held over max_bytes (0 before the first read). */
  get fill(): number {
    return this.maxBytes > 0 ? this.bytes / this.maxBytes : 0;
  }

  /** A new entry (key line or held marker) about to be written under `subject` with `value`: counted until the next read. */
  add(subject: string, value: string): void {
    this.bytes += subject.length + value.length + ENTRY_OVERHEAD;
  }

  /** Reads the stream again, in the background, when past half full and the last read is a second old. */
  refresh(): void {
    if (this.reading || this.fill < 0.5 || this.now() - this.readAt < this.refreshMs) return;
    this.reading = true;
    this.read()
      .then((r) => this.set(r.bytes, r.maxBytes))
      .catch(() => undefined) // NATS away: the last read stands
      .finally(() => {
        this.reading = false;
      });
  }
}
