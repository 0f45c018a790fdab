/**
 * Daily journaling prompts. 31 of them, taken in turn by calendar day, so nobody gets the same
 * prompt twice within a month. Plain ASCII and short: with the brand and the STOP line each text
 * stays one 160-character SMS segment.
 */
export const JOURNAL_PROMPTS: readonly string[] = [
  'What made you smile today?',
  'What is one thing you are grateful for right now?',
  'What was the best part of your day?',
  'What is something you learned today?',
  'Who made a difference to your day, and how?',
  'What challenged you today, and how did you handle it?',
  'Describe a small moment from today you want to remember.',
  'What are you looking forward to this week?',
  'How are you feeling right now, in one or two words? Why?',
  'What is something you did today that you are proud of?',
  'What drained your energy today, and what restored it?',
  'What would you like to do differently tomorrow?',
  'What is on your mind tonight?',
  'What was the most interesting thing you saw or heard today?',
  'What is one kind thing someone did for you lately?',
  'What is a worry you can let go of tonight?',
  'What did you eat today that you enjoyed?',
  'Where did you spend most of your time today?',
  'What is a goal you moved closer to today?',
  'What surprised you today?',
  'Who did you talk to today, and what about?',
  'What made today different from yesterday?',
  'What is something you want to remember about this season of life?',
  'What is one thing you could let yourself rest from tomorrow?',
  'What song, book or show is on your mind lately?',
  'What did you notice outside today?',
  'What is a decision you are thinking about?',
  'What gave you a sense of calm today?',
  'What is something you are curious about right now?',
  'What would make tomorrow a good day?',
  'Write three words that sum up today, then say why.',
];

/** The prompt for a local calendar day (YYYY-MM-DD): consecutive days get consecutive prompts. */
export function promptForDay(day: string): string {
  const dayNumber = Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
  const n = JOURNAL_PROMPTS.length;
  return JOURNAL_PROMPTS[((dayNumber % n) + n) % n]!;
}
