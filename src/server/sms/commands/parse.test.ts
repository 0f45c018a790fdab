import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClockTime, parseTextCommand } from './parse';

describe('parseTextCommand: a command is the whole message, in any case', () => {
  it('reads each command word alone, in any case, with spaces and a full stop forgiven', () => {
    expect(parseTextCommand('UNDO')).toEqual({ name: 'undo' });
    expect(parseTextCommand('  undo. ')).toEqual({ name: 'undo' });
    expect(parseTextCommand('Link')).toEqual({ name: 'link' });
    expect(parseTextCommand('commands')).toEqual({ name: 'commands' });
    expect(parseTextCommand('Resume!')).toEqual({ name: 'resume' });
  });

  it('pauses for 7 days, or for 1 to 30 days when a number is given', () => {
    expect(parseTextCommand('PAUSE')).toEqual({ name: 'pause', days: 7 });
    expect(parseTextCommand('pause 3')).toEqual({ name: 'pause', days: 3 });
    expect(parseTextCommand('Pause 30 days')).toEqual({ name: 'pause', days: 30 });
    expect(parseTextCommand('pause 1 day')).toEqual({ name: 'pause', days: 1 });
    expect(parseTextCommand('PAUSE 0')).toEqual({ name: 'pause', days: null });
    expect(parseTextCommand('PAUSE 31')).toEqual({ name: 'pause', days: null });
  });

  it('sets the reminder from 12-hour or 24-hour times, rounded to the quarter hour, or turns it off', () => {
    expect(parseTextCommand('REMIND 9pm')).toEqual({ name: 'remind', time: '21:00', rounded: false });
    expect(parseTextCommand('remind 9:30 p.m.')).toEqual({ name: 'remind', time: '21:30', rounded: false });
    expect(parseTextCommand('Remind 21:30')).toEqual({ name: 'remind', time: '21:30', rounded: false });
    expect(parseTextCommand('remind 7:08am')).toEqual({ name: 'remind', time: '07:15', rounded: true });
    expect(parseTextCommand('REMIND 12am')).toEqual({ name: 'remind', time: '00:00', rounded: false });
    expect(parseTextCommand('REMIND 12pm')).toEqual({ name: 'remind', time: '12:00', rounded: false });
    expect(parseTextCommand('REMIND 23:55')).toEqual({ name: 'remind', time: '00:00', rounded: true });
    expect(parseTextCommand('remind off')).toEqual({ name: 'remind', time: 'off', rounded: false });
  });

  it('answers REMIND alone or with an impossible time with how to use it', () => {
    expect(parseTextCommand('REMIND')).toEqual({ name: 'remind', time: null, rounded: false });
    expect(parseTextCommand('REMIND 25:00')).toEqual({ name: 'remind', time: null, rounded: false });
    expect(parseTextCommand('REMIND 13pm')).toEqual({ name: 'remind', time: null, rounded: false });
    expect(parseTextCommand('REMIND 9:75')).toEqual({ name: 'remind', time: null, rounded: false });
  });

  it('takes YESTERDAY only with its colon or dash, keeping the rest of the text as written', () => {
    expect(parseTextCommand('YESTERDAY: Long walk by the river.')).toEqual({ name: 'yesterday', text: 'Long walk by the river.' });
    expect(parseTextCommand('Yesterday - we had soup\nand bread')).toEqual({ name: 'yesterday', text: 'we had soup\nand bread' });
    expect(parseTextCommand('yesterday: ')).toEqual({ name: 'yesterday', text: '' });
    expect(parseTextCommand('Yesterday was lovely')).toBeNull();
    expect(parseTextCommand('Yesterday-ish, I think')).toBeNull();
    expect(parseTextCommand('Yesterday, at last: rain')).toBeNull();
  });

  it('leaves ordinary sentences and keywords alone', () => {
    for (const sentence of ['Undo the knot before it tightens', 'Link arms and walk', 'Pause for breath', 'Remind me to call Mum', 'Remind 5 people', 'Resume writing tomorrow', 'Commands from the coach', 'STOP', 'HELP', 'YES', '']) {
      expect(parseTextCommand(sentence), sentence).toBeNull();
    }
  });

  it('never takes a sentence that merely starts with a command word for a command (property)', () => {
    const word = fc.constantFrom('undo', 'link', 'pause', 'resume', 'remind', 'commands', 'yesterday');
    const anyCase = (w: string) => fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length }).map((up) => [...w].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
    const firstWord = fc.stringMatching(/^[a-z]{1,10}$/);
    const rest = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(word.chain(anyCase), firstWord, rest, (command, first, tail) => {
        const after = `${first}${tail}`;
        // "REMIND off" is the one command a letter can start after the word.
        fc.pre(!(command.toLowerCase() === 'remind' && /^off[\s.!]*$/i.test(after.trim())));
        expect(parseTextCommand(`${command} ${after}`)).toBeNull();
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });

  it('finds each command whatever its case and surrounding spaces (property)', () => {
    const command = fc.constantFrom('undo', 'link', 'pause', 'resume', 'commands', 'remind off', 'pause 5', 'remind 9pm');
    const flip = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
    const space = fc.constantFrom('', ' ', '  ', '\n', '\t ');
    fc.assert(
      fc.property(command.chain(flip), space, space, (text, before, after) => {
        expect(parseTextCommand(`${before}${text}${after}`)).not.toBeNull();
      }),
      { seed: 20261123, numRuns: 500 },
    );
  });
});

describe('parseClockTime', () => {
  it('rounds every minute of the day to the nearest quarter hour, as settings offer', () => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const hh = String(Math.floor(minute / 60)).padStart(2, '0');
      const mm = String(minute % 60).padStart(2, '0');
      const parsed = parseClockTime(`${hh}:${mm}`)!;
      expect(parsed.time).toMatch(/^([01]\d|2[0-3]):(00|15|30|45)$/);
      const [h, m] = parsed.time.split(':').map(Number) as [number, number];
      const distance = Math.min(Math.abs(h * 60 + m - minute), 24 * 60 - Math.abs(h * 60 + m - minute));
      expect(distance).toBeLessThanOrEqual(7);
      expect(parsed.rounded).toBe(minute % 15 !== 0);
    }
  });
});
