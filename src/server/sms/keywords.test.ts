import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confirmationCodeOf, keywordOf, providerKeywordOf } from './keywords';
import { JOURNAL_SENTENCES } from '../test/keywords-journal-corpus';

/** Texts that revoke consent (47 CFR 64.1200(a)(10)): each must opt out. */
const REVOCATIONS = [
  // the carrier keywords, as people type them
  'STOP', 'stop', ' Stop ', 'STOPALL', 'stop all', 'unsubscribe', 'Cancel', 'END', 'quit', 'REVOKE', 'optout', 'opt out', 'Opt-Out',
  'STOP.', 'Stop!!', 'stop please', 'STOP 🙏', 'cancel.', 'End!', 'Quit?!', 'Unsubscribe.', '"STOP"', 'stop stop', 'STOP 🛑🛑',
  'Please stop', 'please STOP!', 'Stop, thank you', 'Thanks, stop.', 'stop now', 'STOP IMMEDIATELY', 'ok stop', 'Stop 😡',
  // free-form
  'stop texting me', 'Stop texting me!', 'please stop texting me', 'stop texting me please', 'Can you please stop texting me?',
  'I want you to stop texting me', 'Stop sending me these messages', 'stop sending texts', 'quit messaging me', 'stop contacting me',
  'Stop bothering me.', 'please unsubscribe me', 'Unsubscribe me from these texts please', 'I want to unsubscribe', "I'd like to opt out",
  'opt me out', 'Opt me out of this', 'opt out of these texts', 'no more texts', 'No more messages please', 'no more reminders!',
  'remove me from this list', 'Remove me', 'Please remove me from your list', 'Take me off your list', 'take my number off the list',
  'delete my number', "Don't text me anymore", 'do not text me again', 'Never text me again.', "Don't send me texts",
  "I don't want these texts", 'I no longer want to receive messages', 'cancel my subscription', 'Stop all texts', 'end these messages',
  'stop the reminders', 'Stop it!', 'stop this', 'revoke consent', 'I revoke my consent', 'withdraw consent', 'leave me alone',
  'Wrong number', 'not interested',
  // as phones send them: a signature line, compatibility forms, letters typed one by one, invisible characters
  'STOP.\nSent from my iPhone', 'Stop\r\nSent from my Samsung Galaxy smartphone.', 'stop\n\nGet Outlook for Android', 'STOP\n-- \nDana Whitfield',
  'ＳＴＯＰ', 'ｓｔｏｐ！', 'S T O P', 's.t.o.p', 'S-T-O-P please', 'ST\u200BOP', '\uFEFFSTOP', 'S\u200DT\u00ADOP', 'Stop\u200B texting me',
];

/** Journal texts that use the same words and must stay journal text. */
const NOT_REVOCATIONS = [
  'I need to stop eating sugar', 'Cancel the trip, we stayed home', 'End of a long week', 'Stop and smell the roses',
  'Told him to stop texting me', 'I need to stop texting', 'I want to stop.', 'I want to end it', 'I quit', 'The end.',
  'Quit my job today', 'No more coffee after 3pm', 'No more texts from Sam, finally some peace.', 'stopped by the bakery',
  'Unsubscribed from forty newsletters', 'Remove the stain tomorrow', 'Cancel everything.', 'Stopped.', 'STOPPED AT THE LIGHT',
  'stop worrying so much', 'I need help', 'Yes and no.',
  'Sent from my iPhone', 'Stopped at the lake.\nSent from my iPhone', 'S T O P P E D', 'A B C D E F G, sang it all day', 'stop\nand go traffic all day',
];

describe('keywordOf', () => {
  it.each(REVOCATIONS)('reads %j as an opt-out', (text) => {
    expect(keywordOf(text)).toBe('opt_out');
  });

  it.each(NOT_REVOCATIONS)('reads %j as journal text', (text) => {
    expect(keywordOf(text)).toBeNull();
  });

  it('gives START, UNSTOP, HELP, INFO and YES the same tolerance', () => {
    for (const text of ['start', 'START.', 'Start please', 'start again', 'UNSTOP!', 'unstop 🙏']) expect(keywordOf(text), text).toBe('opt_in');
    for (const text of ['help', 'HELP?', 'Help!!', 'please help', 'Info.', ' INFO ']) expect(keywordOf(text), text).toBe('help');
    for (const text of ['yes\n', 'Yes!', 'yes please', 'YES 👍', 'Yes, thanks', 'yes yes']) expect(keywordOf(text), text).toBe('yes');
    for (const text of ['ＳＴＡＲＴ', 'S T A R T', 'start\nSent from my iPhone']) expect(keywordOf(text), text).toBe('opt_in');
    for (const text of ['ＨＥＬＰ', 'H E L P', 'he\u200Blp']) expect(keywordOf(text), text).toBe('help');
    for (const text of ['ＹＥＳ', 'Y E S', 'Yes\nSent from my iPhone']) expect(keywordOf(text), text).toBe('yes');
  });

  it('reads nothing from an empty text or courtesy alone', () => {
    for (const text of ['', '   ', '🙏', '...', 'please', 'thanks', 'ok']) expect(keywordOf(text), text).toBeNull();
  });

  it('never reads an everyday journal sentence as a keyword, however it is cased or ends (seeded property)', () => {
    const ending = fc.constantFrom('', '.', '!', '!!', '?', ' 🙂', ' 😂', ' ❤️', '...', ' 🙏', '\nSent from my iPhone', '\u200B', '！');
    const casing = fc.constantFrom((s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.toLowerCase());
    fc.assert(
      fc.property(fc.constantFrom(...JOURNAL_SENTENCES), ending, casing, (sentence, end, cased) => keywordOf(cased(sentence) + end) === null),
      { seed: 20250411, numRuns: 3_000 },
    );
  });

  it('reads a keyword however it is cased, padded or decorated (seeded property)', () => {
    const word = fc.constantFrom(
      ['STOP', 'opt_out'], ['CANCEL', 'opt_out'], ['END', 'opt_out'], ['QUIT', 'opt_out'], ['UNSUBSCRIBE', 'opt_out'], ['REVOKE', 'opt_out'],
      ['OPTOUT', 'opt_out'], ['STOPALL', 'opt_out'], ['START', 'opt_in'], ['UNSTOP', 'opt_in'], ['HELP', 'help'], ['INFO', 'help'], ['YES', 'yes'],
    );
    const casing = fc.array(fc.boolean(), { minLength: 11, maxLength: 11 });
    const before = fc.constantFrom('', ' ', '\n', 'please ', 'Please, ', '"');
    const after = fc.constantFrom('', '.', '!', '!!!', '?', ' please', ', thanks', ' 🙏', ' 🛑', '"', '\n', ' now');
    fc.assert(
      fc.property(word, casing, before, after, ([keyword, meaning], upper, pre, post) => {
        const cased = [...keyword].map((c, i) => (upper[i] ? c : c.toLowerCase())).join('');
        return keywordOf(pre + cased + post) === meaning;
      }),
      { seed: 64120010, numRuns: 2_000 },
    );
  });
});

describe('confirmationCodeOf', () => {
  it('reads a four-digit code alone or after YES', () => {
    expect(confirmationCodeOf('4821')).toBe('4821');
    expect(confirmationCodeOf(' YES 4821. ')).toBe('4821');
    expect(confirmationCodeOf('yes, 0042 please')).toBe('0042');
  });

  it('reads nothing else as a code', () => {
    for (const text of ['48212', '482', 'YES', 'I slept 4821 minutes', '4821 4821']) expect(confirmationCodeOf(text), text).toBeNull();
  });
});

describe('providerKeywordOf', () => {
  it('reads Twilio Advanced Opt-Out types', () => {
    expect(providerKeywordOf('STOP')).toBe('opt_out');
    expect(providerKeywordOf('START')).toBe('opt_in');
    expect(providerKeywordOf('HELP')).toBe('help');
    expect(providerKeywordOf(undefined)).toBeNull();
  });
});
