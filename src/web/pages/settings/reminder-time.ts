import { REMINDER_MINUTES } from '../../../shared/profile';

/** The time picker's reading of a reminder time (spec 5: hours 1-12, minutes 0/15/30/45, AM/PM). */
export interface TwelveHourTime {
  hour: number;
  minute: number;
  period: 'AM' | 'PM';
}

export const REMINDER_HOURS = [12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
export const PERIODS = ['AM', 'PM'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** '00:15' → 12:15 AM, '12:30' → 12:30 PM, '20:00' → 8:00 PM. Null when it is not 24h HH:MM. */
export function toTwelveHour(time: string): TwelveHourTime | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) return null;
  const hours = Number(match[1]);
  return { hour: hours % 12 === 0 ? 12 : hours % 12, minute: Number(match[2]), period: hours < 12 ? 'AM' : 'PM' };
}

/** 12 AM is 00:xx and 12 PM is 12:xx. */
export function toTwentyFourHour({ hour, minute, period }: TwelveHourTime): string {
  return `${pad((hour % 12) + (period === 'PM' ? 12 : 0))}:${pad(minute)}`;
}

export const formatMinute = pad;

/** The offered quarter hours, plus a stored minute that is not one (so the picker still shows it). */
export function minuteOptions(current: number): number[] {
  const offered: number[] = [...REMINDER_MINUTES];
  return offered.includes(current) ? offered : [...offered, current].sort((a, b) => a - b);
}
