import { addDays } from '../journal/dates';
import type { Scene } from './images';
import { AUTUMN_GARDEN, HOLIDAYS, REFLECTIONS, TEXTS, THEME_TAGS, THEMES, themesFor, TITLES, TRIP, WEATHER, type Season, type Theme } from './phrases';
import { pick, pickSome, type Random } from './random';

/** A moment in the writer's local day. */
export interface LocalTime {
  hour: number;
  minute: number;
}

export interface PlannedWebEntry extends LocalTime {
  date: string;
  source: 'web';
  title: string | null;
  tags: string[];
  content: string;
  photos: Scene[];
}

interface PlannedTexts {
  date: string;
  source: 'sms';
  /** Texts to the journal number, in the order sent. */
  texts: Array<LocalTime & { body: string }>;
}

export type PlannedDay = PlannedWebEntry | PlannedTexts;

/** The last days before today all have an entry, so the journal shows a streak. */
const STREAK_DAYS = 17;
const MISSED_DAY_RATE = 0.09;
const TEXTED_DAY_RATE = 0.35;
const PHOTO_RATE = 0.1;
/** A long evening write-up comes now and then, and at least once in this many web entries. */
const LONG_ENTRY_RATE = 0.15;
const LONG_ENTRY_EVERY = 30;

function seasonOf(date: string): Season {
  const month = Number(date.slice(5, 7));
  return month === 12 || month <= 2 ? 'winter' : month <= 5 ? 'spring' : month <= 8 ? 'summer' : 'autumn';
}

function isWeekend(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** Hands out a list's items in random order, each once, before any comes round again. */
class Deck {
  private left: string[] = [];
  constructor(
    private readonly random: Random,
    private readonly items: readonly string[],
  ) {}

  draw(): string {
    if (this.left.length === 0) this.left = [...this.items];
    return this.left.splice(Math.floor(this.random() * this.left.length), 1)[0]!;
  }
}

const at = (random: Random, fromHour: number, toHour: number): LocalTime => ({
  hour: fromHour + Math.floor(random() * (toHour - fromHour + 1)),
  minute: Math.floor(random() * 60),
});

/** Plans the demo journal: one day after another, oldest first, ending today. */
export function planDemoYear(today: string, days: number, random: Random): PlannedDay[] {
  const deck = new Map<string, Deck>();
  const draw = (key: string, items: readonly string[]) => {
    if (!deck.has(key)) deck.set(key, new Deck(random, items));
    return deck.get(key)!.draw();
  };
  const sentence = (theme: Theme, season: Season) =>
    theme === 'garden' && season === 'autumn' ? draw('garden-autumn', AUTUMN_GARDEN) : draw(theme, THEMES[theme]);

  const first = addDays(today, -(days - 1));
  const tripFrom = [0, 1].map((back) => `${Number(today.slice(0, 4)) - back}-07-21`).find((d) => d >= first && addDays(d, 6) < today);

  function webEntry(date: string, long: boolean): PlannedWebEntry {
    const season = seasonOf(date);
    const themes = themesFor(season, isWeekend(date));
    const main = pick(random, themes);
    // Most days a few lines about one or two things; now and then a long evening write-up
    // about three things, the weather and what the day meant.
    const others = themes.filter((t) => t !== main);
    const more = long ? pickSome(random, others, 2) : random() < 0.6 ? [pick(random, others)] : [];
    const about = [main, ...more];
    // Two lines on one theme, except where each line is a whole outing of its own (a run, a night out).
    const twice = (theme: Theme) => long || (theme !== 'running' && theme !== 'friends' && random() < 0.35);
    const paragraphs = about.map((theme) => [sentence(theme, season), ...(twice(theme) ? [sentence(theme, season)] : [])].join(' '));
    if (long || random() < 0.65) paragraphs[0] = `${draw(season, WEATHER[season])} ${paragraphs[0]}`;
    const reflection = long || random() < 0.5 ? draw('reflection', REFLECTIONS) : undefined;
    if (reflection) paragraphs.push(reflection);

    const tags = about.flatMap((t) => (random() < 0.7 ? THEME_TAGS[t] : []));
    if (reflection && /^(Grateful|Three good things)/.test(reflection)) tags.push('gratitude');
    const title = random() < 0.4 ? (random() < 0.6 ? draw(`title-${main}`, TITLES[main]) : draw('title-day', TITLES.day)) : null;
    const scene: Scene = main === 'garden' || main === 'dog' ? 'hills' : main === 'friends' ? 'bokeh' : season === 'winter' ? pick(random, ['snow', 'night'] as const) : pick(random, ['sunset', 'hills', 'night'] as const);
    return {
      date,
      source: 'web',
      ...(random() < 0.7 ? at(random, 20, 22) : at(random, 7, 8)),
      title,
      tags: random() < 0.2 ? [] : [...new Set(tags)],
      content: paragraphs.join('\n\n'),
      photos: random() < PHOTO_RATE ? Array.from({ length: random() < 0.75 ? 1 : 2 }, () => scene) : [],
    };
  }

  function tripEntry(date: string, day: number): PlannedWebEntry {
    const lines = [day === 6 ? TRIP[TRIP.length - 1]! : draw('trip', TRIP.slice(0, -1))];
    if (random() < 0.5) lines.unshift(draw('summer', WEATHER.summer));
    return {
      date,
      source: 'web',
      ...at(random, 20, 22),
      title: day === 0 ? 'By the sea' : day === 6 ? 'Last day by the sea' : null,
      tags: ['travel'],
      content: lines.join('\n\n'),
      photos: Array.from({ length: random() < 0.5 ? 1 : 2 }, () => pick(random, ['sea', 'sea', 'sunset'] as const)),
    };
  }

  function texts(date: string): PlannedTexts {
    const season = seasonOf(date);
    const theme = pick(random, themesFor(season, isWeekend(date)));
    const bodies = [draw(`text-${theme}`, TEXTS[theme])];
    if (random() < 0.5) bodies.push(draw('text-moment', TEXTS.moment));
    if (random() < 0.15) bodies.push(draw('text-dog', TEXTS.dog));
    const times = [at(random, 7, 9), at(random, 12, 14), at(random, 18, 21)];
    return { date, source: 'sms', texts: bodies.map((body, i) => ({ body, ...times[i]! })) };
  }

  const plan: PlannedDay[] = [];
  let sinceLong = 0;
  for (let back = days - 1; back >= 0; back--) {
    const date = addDays(today, -back);
    const holiday = HOLIDAYS[date.slice(5)];
    const tripDay = tripFrom && date >= tripFrom && date <= addDays(tripFrom, 6) ? Math.round((Date.parse(date) - Date.parse(tripFrom)) / 86_400_000) : -1;
    if (holiday) {
      const scene: Scene = date.endsWith('12-25') ? 'bokeh' : date.endsWith('01-01') ? 'night' : 'hills';
      plan.push({ date, source: 'web', ...at(random, 19, 21), ...holiday, photos: [scene] });
    } else if (tripDay >= 0) {
      plan.push(tripEntry(date, tripDay));
    } else if (back === STREAK_DAYS || (back > STREAK_DAYS && random() < MISSED_DAY_RATE)) {
      continue; // a day without an entry
    } else if (back > 0 && random() < TEXTED_DAY_RATE) {
      plan.push(texts(date));
    } else {
      const long = sinceLong === LONG_ENTRY_EVERY - 1 || random() < LONG_ENTRY_RATE;
      sinceLong = long ? 0 : sinceLong + 1;
      plan.push(webEntry(date, long));
    }
  }
  return plan;
}
