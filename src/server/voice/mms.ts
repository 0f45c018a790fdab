import { SMS_MEDIA_MAX } from '../../shared/journal';
import { VOICE_MAX_BYTES } from '../../shared/voice-messages';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { SmsMedia } from '../journal/sms-entries';
import { fetchMmsFile } from '../photos/mms';
import { addRecording, type AddedRecording } from './recordings';

// Voice notes sent by MMS: media whose declared type is audio (what iPhones and Android phones
// send; a 3GP declared as video is taken when it decodes without a picture) become recordings of
// the day's phone entry. Photos in the same text stay photos.

const AUDIO_TYPES = new Set(['audio/amr', 'audio/amr-wb', 'audio/3gpp', 'audio/3gpp2', 'video/3gpp', 'video/3gpp2', 'audio/mp4', 'audio/m4a', 'audio/x-m4a', 'audio/aac', 'audio/mpeg', 'audio/mp3', 'audio/ogg', 'audio/opus', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/webm']);

/** Whether a text's medium is sent as audio (its bytes decide later). */
export function isVoiceMedia(media: Pick<SmsMedia, 'contentType'>): boolean {
  return AUDIO_TYPES.has(media.contentType.split(';')[0]!.trim().toLowerCase());
}

/** A text's media, with each one's place among them (the source key names it). */
export function splitMmsMedia(media: readonly SmsMedia[]): { photos: SmsMedia[]; voice: Array<SmsMedia & { index: number }> } {
  const photos: SmsMedia[] = [];
  const voice: Array<SmsMedia & { index: number }> = [];
  media.slice(0, SMS_MEDIA_MAX).forEach((item, index) => (isVoiceMedia(item) ? voice.push({ ...item, index }) : photos.push(item)));
  return { photos, voice };
}

/**
 * Adds a text's voice notes to the user's journal (to `entryDate`'s phone entry, by default the
 * day it arrived), each once however often the text is processed (`mms:<MessageSid>:<index>`). One
 * that fails to download, is not audio or is too long is left out; the text's words and photos
 * still go in.
 */
export async function addMmsVoiceNotes(
  ctx: AppContext,
  userId: string,
  text: { messageSid: string; receivedAt: Date },
  voice: ReadonlyArray<SmsMedia & { index: number }>,
  entryDate?: string,
): Promise<AddedRecording[]> {
  const added: AddedRecording[] = [];
  for (const item of voice) {
    const audio = await fetchMmsFile(ctx, item.url, VOICE_MAX_BYTES);
    if (!audio) continue;
    try {
      added.push(await addRecording(ctx, userId, { audio, mimeType: item.contentType, origin: 'mms', receivedAt: text.receivedAt, entryDate, sourceKey: `mms:${text.messageSid}:${item.index}` }));
    } catch (error) {
      // Refused as audio (not audio, too long): a photo that fails to decode is left out the same way.
      if (error instanceof AppError && error.status < 500) continue;
      throw error;
    }
  }
  return added;
}
