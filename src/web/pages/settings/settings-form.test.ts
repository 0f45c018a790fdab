import { describe, expect, it } from 'vitest';
import { paidSubscription, trialSubscription, expiredSubscription } from '../../test/settings';
import { planState } from './plan-badge';
import { minuteOptions, toTwelveHour, toTwentyFourHour } from './reminder-time';
import { timezoneOptions } from '../../features/time-zone/zones';
import { changedSettings, DEFAULT_REMINDER_SETTINGS, settingsFromProfile } from './settings-form';

describe('reminder time', () => {
  it.each([
    ['00:00', { hour: 12, minute: 0, period: 'AM' }],
    ['00:45', { hour: 12, minute: 45, period: 'AM' }],
    ['07:15', { hour: 7, minute: 15, period: 'AM' }],
    ['11:45', { hour: 11, minute: 45, period: 'AM' }],
    ['12:00', { hour: 12, minute: 0, period: 'PM' }],
    ['12:30', { hour: 12, minute: 30, period: 'PM' }],
    ['13:15', { hour: 1, minute: 15, period: 'PM' }],
    ['20:00', { hour: 8, minute: 0, period: 'PM' }],
    ['23:45', { hour: 11, minute: 45, period: 'PM' }],
  ] as const)('reads %s as %o and writes it back the same', (time, twelve) => {
    expect(toTwelveHour(time)).toEqual(twelve);
    expect(toTwentyFourHour(twelve)).toBe(time);
  });

  it('round-trips every quarter hour of the day', () => {
    for (let h = 0; h < 24; h++) {
      for (const m of ['00', '15', '30', '45']) {
        const time = `${String(h).padStart(2, '0')}:${m}`;
        expect(toTwentyFourHour(toTwelveHour(time)!)).toBe(time);
      }
    }
  });

  it('refuses what is not 24-hour HH:MM', () => {
    for (const bad of ['', '8:00', '24:00', '20:60', '8pm', '20:00:00']) expect(toTwelveHour(bad)).toBeNull();
  });

  it('offers the quarter hours, and keeps a stored odd minute visible', () => {
    expect(minuteOptions(15)).toEqual([0, 15, 30, 45]);
    expect(minuteOptions(10)).toEqual([0, 10, 15, 30, 45]);
  });
});

describe('reminder settings', () => {
  it('fills in the spec defaults: on, 20:00, America/New_York, weekly recap on', () => {
    expect(settingsFromProfile(null)).toEqual(DEFAULT_REMINDER_SETTINGS);
    expect(DEFAULT_REMINDER_SETTINGS).toMatchObject({
      reminder_enabled: true,
      reminder_time: '20:00',
      timezone: 'America/New_York',
      weekly_recap_enabled: true,
    });
    expect(settingsFromProfile({ reminder_time: 'soon' }).reminder_time).toBe('20:00');
  });

  it('keeps false values rather than defaulting them', () => {
    expect(settingsFromProfile({ reminder_enabled: false, weekly_recap_enabled: false, prompts_enabled: false })).toMatchObject({
      reminder_enabled: false,
      weekly_recap_enabled: false,
      prompts_enabled: false,
    });
  });

  it('lists only the fields that changed', () => {
    const stored = DEFAULT_REMINDER_SETTINGS;
    expect(changedSettings(stored, { ...stored })).toEqual({});
    expect(changedSettings(stored, { ...stored, reminder_time: '07:30', prompts_enabled: false })).toEqual({ reminder_time: '07:30', prompts_enabled: false });
  });

  it('shows a stored zone that is not offered rather than pretending it is Eastern', () => {
    expect(timezoneOptions('America/New_York')).toHaveLength(7);
    expect(timezoneOptions('Europe/London').at(-1)).toEqual({ value: 'Europe/London', label: 'Europe/London' });
  });
});

describe('plan badge', () => {
  it('names the plan', () => {
    expect(planState(trialSubscription(2.5))).toMatchObject({ kind: 'trial', label: 'Free Trial', daysLeft: 3 });
    expect(planState(paidSubscription('monthly'))).toEqual({ kind: 'subscribed', label: 'Monthly' });
    expect(planState(paidSubscription('yearly'))).toEqual({ kind: 'subscribed', label: 'Yearly' });
    expect(planState(expiredSubscription)).toEqual({ kind: 'expired', label: 'Expired' });
    expect(planState({ ...expiredSubscription, is_trial: false, trial_end: null })).toEqual({ kind: 'expired', label: 'Expired' });
  });
});
