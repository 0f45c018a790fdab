// Our backup is a Day One export: Journal.json ({metadata, entries: [{uuid, creationDate,
// modifiedDate, timeZone, text, tags, starred, photos: [{identifier, md5, type, orderInEntry,
// filename…}], audios: [{identifier, md5, format, fileSize, duration, date, transcription}]}]})
// beside photos/MD5.TYPE and audios/MD5.FORMAT, so Day One (and anything that reads its format)
// opens it. Each entry adds `jotline`: what Day One has no field for (the entry's day when written
// later, text or web, exact times), so it comes back into Jotline exactly as it was. Written by the
// server (export/zip) and, for a Vault journal, by the browser that opened it.

/** A photo as written into the ZIP: photos/MD5.TYPE. */
export interface ZippedPhoto {
  md5: string;
  /** Day One's type: jpeg, png, gif, webp. */
  type: string;
  size: number;
}

/** A recording as written into the ZIP: audios/MD5.FORMAT. */
export interface ZippedAudio {
  md5: string;
  format: string;
  size: number;
}

/** What an entry gives its Day One form: the server's cached entry and the API's entry both have it. */
export interface DayOneSource {
  id: string;
  title: string | null;
  content: string | null;
  entry_date: string;
  source: string;
  created_at: string;
  updated_at: string;
  time_zone?: string | null;
  tags: readonly string[];
  /** `created_at` when known; otherwise the entry's moment stands for it. */
  photos: ReadonlyArray<{ id: string; file_name: string; created_at?: string }>;
  recordings?: ReadonlyArray<{ id: string; duration_seconds: number | string; transcript: string | null; transcript_status: string; created_at?: string }>;
}

/** Day One's identifiers are 32 upper-case hex digits; ours are UUIDs, the same digits. */
export const dayOneId = (uuid: string) => uuid.replace(/-/g, '').toUpperCase();

/** Day One writes instants to the second, in UTC. */
export const dayOneDate = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Day One's text is Markdown: every ASCII punctuation mark is escaped, so plain text stays plain. */
export const escapeMarkdown = (text: string) => text.replace(/[!-/:-@[-`{-~]/g, '\\$&');

export const photoType = (mimeType: string) => ({ 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' })[mimeType] ?? 'jpeg';

/** Day One's audio format: its file's extension. */
export const audioFormat = (mimeType: string) =>
  ({ 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'audio/mpeg': 'mp3', 'audio/ogg': 'ogg', 'audio/wav': 'wav', 'audio/webm': 'webm', 'audio/amr': 'amr', 'audio/3gpp': '3gp' })[mimeType] ?? 'm4a';

function entryText(entry: DayOneSource, photoIds: readonly string[]): string {
  const parts = [entry.title === null ? null : `# ${escapeMarkdown(entry.title)}`, entry.content ? escapeMarkdown(entry.content) : null];
  // Where Day One shows each photo.
  if (photoIds.length) parts.push(photoIds.map((id) => `![](dayone-moment://${dayOneId(id)})`).join('\n'));
  return parts.filter((p) => p !== null).join('\n\n');
}

function dayOneEntry(entry: DayOneSource, accountZone: string, zipped: ReadonlyMap<string, ZippedPhoto>, audios: ReadonlyMap<string, ZippedAudio>) {
  const photos = entry.photos.filter((p) => zipped.has(p.id));
  const recordings = (entry.recordings ?? []).filter((r) => audios.has(r.id));
  return {
    uuid: dayOneId(entry.id),
    creationDate: dayOneDate(entry.created_at),
    modifiedDate: dayOneDate(entry.updated_at),
    timeZone: entry.time_zone ?? accountZone,
    starred: entry.tags.some((t) => t.toLowerCase() === 'starred'),
    text: entryText(entry, photos.map((p) => p.id)),
    tags: entry.tags,
    ...(photos.length && {
      photos: photos.map((photo, order) => {
        const file = zipped.get(photo.id)!;
        return { identifier: dayOneId(photo.id), md5: file.md5, type: file.type, orderInEntry: order, fileSize: file.size, filename: photo.file_name, date: dayOneDate(photo.created_at ?? entry.created_at) };
      }),
    }),
    ...(recordings.length && {
      audios: recordings.map((recording) => {
        const file = audios.get(recording.id)!;
        return {
          identifier: dayOneId(recording.id),
          md5: file.md5,
          format: file.format,
          fileSize: file.size,
          duration: Number(recording.duration_seconds),
          date: dayOneDate(recording.created_at ?? entry.created_at),
          ...(recording.transcript_status === 'done' && recording.transcript !== null && { transcription: recording.transcript }),
        };
      }),
    }),
    jotline: { id: entry.id, entry_date: entry.entry_date, source: entry.source, created_at: entry.created_at, updated_at: entry.updated_at },
  };
}

/** Journal.json for the entries (oldest first), naming the photos and recordings the ZIP holds. */
export function journalJson(entries: readonly DayOneSource[], accountZone: string, zipped: ReadonlyMap<string, ZippedPhoto>, audios: ReadonlyMap<string, ZippedAudio> = new Map()): string {
  const ordered = [...entries].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  return JSON.stringify({ metadata: { version: '1.0' }, entries: ordered.map((e) => dayOneEntry(e, accountZone, zipped, audios)) }, null, 2);
}
