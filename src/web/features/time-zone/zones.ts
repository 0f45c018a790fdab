import { DEFAULT_TIMEZONE, OFFERED_TIMEZONES } from '../../../shared/auth-schemas';

/** Spec 9: the zones offered, by the names people know them by. */
const TIMEZONE_LABELS: Record<(typeof OFFERED_TIMEZONES)[number], string> = {
  'America/New_York': 'Eastern',
  'America/Chicago': 'Central',
  'America/Denver': 'Mountain',
  'America/Phoenix': 'Mountain-Arizona',
  'America/Los_Angeles': 'Pacific',
  'America/Anchorage': 'Alaska',
  'Pacific/Honolulu': 'Hawaii',
};

interface ZoneOption {
  value: string;
  label: string;
}

/**
 * The offered zones, then `current` when it is another (a browser's zone, or one stored before), so
 * the choice always shows what is set: 'America/Detroit' reads 'America/Detroit'.
 */
export function timezoneOptions(current: string): ZoneOption[] {
  const offered = OFFERED_TIMEZONES.map((zone) => ({ value: zone, label: TIMEZONE_LABELS[zone] }));
  return offered.some((o) => o.value === current) ? offered : [...offered, { value: current, label: current.replaceAll('_', ' ') }];
}

/** The browser's IANA zone, what sign-up starts with; Eastern when the browser will not say. */
export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIMEZONE;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}
