import type { EntryPhoto, JournalEntry, ServedEntry } from '../../shared/journal';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { signedMediaUrl } from '../photos/signed-url';
import type { CachedEntry } from './cache';
import { presentRecording } from '../voice/present';

export function presentPhoto(ctx: AppContext, photo: JournalPhotoRow): EntryPhoto {
  return {
    id: photo.id,
    url: signedMediaUrl(ctx, photo.file_path, 'full'),
    thumbnail_url: signedMediaUrl(ctx, photo.file_path, 'thumb'),
    file_name: photo.file_name,
    file_size: Number(photo.file_size),
    mime_type: photo.mime_type,
  };
}

/** An entry's own fields as the API shows them; photos are presented by the caller. */
function presentEntryFields(entry: CachedEntry): Omit<JournalEntry, 'photos'> {
  return {
    id: entry.id,
    title: entry.title,
    content: entry.content,
    source: entry.source,
    entry_date: entry.entry_date,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    tags: entry.tags,
    word_count: entry.word_count,
    time_zone: entry.time_zone ?? null,
    version: entry.version,
  };
}

/**
 * An entry as the API shows it. A Vault entry has no words here (DESIGN 6): content and title null,
 * no tags, and its sealed segments for the browser to open; its photos' names are sealed as stored.
 */
export function presentEntry(ctx: AppContext, entry: CachedEntry): ServedEntry {
  const photos = entry.photos.map((photo) => presentPhoto(ctx, photo));
  const recordings = entry.recordings.map((recording) => presentRecording(ctx, recording));
  if (entry.sealed) return { ...presentEntryFields(entry), content: null, title: null, tags: [], sealed: entry.sealed, photos, recordings };
  return { ...presentEntryFields(entry), photos, recordings };
}
