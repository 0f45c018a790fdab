// How the journal is searched, the same on the server and, for a Vault journal, in the browser.

/** Case- and accent-insensitive form of text for matching: "Café" and "cafe" meet. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Search terms: words, or "quoted phrases"; an entry must contain every term. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const terms: string[] = [];
  // eslint-disable-next-line no-control-regex
  for (const match of foldText(q).replace(/\u0000/g, '').matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (match[1] ?? match[2] ?? '').replace(/\s+/g, ' ').trim();
    if (term) terms.push(term);
  }
  return terms;
}

/** An entry's text as search reads it: folded, whitespace as single spaces. */
export function searchableText(entry: { title: string | null; content: string; tags: readonly string[] }): string {
  // Folding first: it can make a space of its own ("¨" is a space and a mark).
  return foldText([entry.title ?? '', entry.content, ...entry.tags].join('\n')).replace(/\s+/g, ' ');
}

/**
 * Consecutive days with an entry, ending today or yesterday; 0 when neither has one.
 * `days` is newest first, without repeats.
 */
export function currentStreak(days: readonly string[], today: string): number {
  // Day numbers, so a ten-year streak is ten thousand integer steps, not date arithmetic.
  const dayNumber = (day: string) => Date.parse(day) / 86_400_000;
  const todayNumber = dayNumber(today);
  let streak = 0;
  let expected: number | undefined;
  for (const day of days) {
    const n = dayNumber(day);
    if (n > todayNumber) continue; // a future-dated entry neither starts nor breaks a streak
    if (expected === undefined) {
      if (n < todayNumber - 1) return 0;
      expected = n;
    }
    if (n !== expected) break;
    streak += 1;
    expected -= 1;
  }
  return streak;
}
