// What the node's copies of database rows share (the sessions, decision 026; the settings, decision 053):
// they are kept true by notices from the database. While the listener is not connected nothing is held,
// a (re)connection starts empty, and a read that began before a notice is not stored (it may be stale).
export abstract class NoticedCache {
  /** Bumped by every notice: a read that started before one must not store what it read. */
  protected generation = 0;
  protected isListening = false;

  /** Called when the listener connects (true) or loses its connection (false); both start afresh. */
  listening(isListening: boolean) {
    this.isListening = isListening;
    this.clear();
  }

  /** The generation to pass to `mayStore` for what is read from the database after this call. */
  stamp() { return this.generation; }

  /** Whether what was read since `stamp` may be kept: listening, and no notice arrived in between. */
  protected mayStore(stamp: number) { return this.isListening && stamp === this.generation; }

  /** Drops every copy; a read under way will not be kept. */
  protected clear() {
    this.generation++;
    this.forgetAll();
  }

  protected abstract forgetAll(): void;
}
