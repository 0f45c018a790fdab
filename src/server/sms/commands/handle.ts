import { messages } from '../../../shared/messages';
import { issueSignInLink } from '../../auth/sign-in-link';
import type { AppContext } from '../../context';
import type { Profile } from '../../db/tables';
import { addDays, localDate } from '../../journal/dates';
import { undoLastText } from '../../journal/sms-undo/undo';
import { updateProfile } from '../../profile/service';
import type { TextCommand } from './parse';
import { clockTime, isPaused, localDateTime, pauseTexts, resumeTexts } from './pause';

const t = messages.textCommands;

/** A command other than YESTERDAY (which journals, so inbound-rules handles it). */
export type ReplyingCommand = Exclude<TextCommand, { name: 'yesterday' }>;

/**
 * Carries out a text command for a verified user and returns the short confirmation to text back.
 * Works without access (LINK is how an expired user reaches export) and while paused.
 */
export async function runTextCommand(ctx: AppContext, profile: Profile, command: ReplyingCommand, messageId: string): Promise<string> {
  switch (command.name) {
    case 'commands':
      return t.commands;
    case 'link':
      return t.link(await issueSignInLink(ctx, profile.id));
    case 'undo': {
      const outcome = await undoLastText(ctx, profile.id, messageId);
      if (outcome.status === 'nothing') return t.nothingToUndo;
      if (outcome.status === 'edited') return t.undoEdited(ctx.config.publicUrl);
      return t.undone(dayName(ctx, profile, outcome.entryDate), outcome.photos, outcome.entryDeleted);
    }
    case 'pause': {
      if (command.days === null) return t.pauseDays;
      const until = await pauseTexts(ctx, profile.id, command.days);
      return t.paused(localDateTime(until, profile.timezone));
    }
    case 'resume':
      return (await resumeTexts(ctx, profile.id)) ? t.resumed : t.notPaused;
    case 'remind': {
      if (command.time === null) return t.reminderHow;
      if (command.time === 'off') {
        await updateProfile(ctx, profile.id, { reminder_enabled: false });
        return t.reminderOff;
      }
      await updateProfile(ctx, profile.id, { reminder_enabled: true, reminder_time: command.time });
      const set = t.reminderSet(clockTime(command.time), command.rounded);
      return isPaused(profile, ctx.clock.now()) ? `${set} ${t.stillPaused(localDateTime(new Date(profile.paused_until!), profile.timezone))}` : set;
    }
  }
}

/** "today", "yesterday" or the date, for the UNDO reply. */
function dayName(ctx: AppContext, profile: Profile, entryDate: string): string {
  const today = localDate(ctx.clock.now(), profile.timezone);
  if (entryDate === today) return 'today';
  if (entryDate === addDays(today, -1)) return 'yesterday';
  return entryDate;
}
