import type { EventStream } from './stream';

/** At most this many open streams per user on one instance; opening another closes the oldest. */
const MAX_STREAMS_PER_USER = 10;

export interface OpenStream {
  userId: string;
  sessionFamily: string;
  stream: EventStream;
}

/** This instance's open event streams, by user, oldest first. */
export class OpenStreams {
  private readonly byUser = new Map<string, OpenStream[]>();

  /** Adds a stream; closes the user's oldest ones beyond the limit. */
  add(open: OpenStream): void {
    const list = [...(this.byUser.get(open.userId) ?? []), open];
    const oldest = list.splice(0, Math.max(0, list.length - MAX_STREAMS_PER_USER));
    this.byUser.set(open.userId, list);
    for (const old of oldest) old.stream.close();
  }

  remove(open: OpenStream): void {
    const list = (this.byUser.get(open.userId) ?? []).filter((o) => o !== open);
    if (list.length > 0) this.byUser.set(open.userId, list);
    else this.byUser.delete(open.userId);
  }

  count(userId: string): number {
    return this.byUser.get(userId)?.length ?? 0;
  }

  closeAll(): void {
    for (const list of [...this.byUser.values()]) for (const open of list) open.stream.close();
  }
}
