import { messages } from '../../../shared/messages';

/** The journal screen's words, from src/shared/messages.ts. */
export const journalCopy = messages.journalScreen;

/** 'n days remaining' with the right plural. */
export function daysRemaining(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} remaining`;
}
