// What the demo journal's writer says: a designer in a small city, with a partner (Sam), a dog
// (Juniper), a sister (Nora), a running habit and a vegetable patch. Sentences are grouped by
// theme; entries are stitched from them by journal-text.ts.

export type Season = 'winter' | 'spring' | 'summer' | 'autumn';

export type Theme = 'work' | 'family' | 'running' | 'reading' | 'cooking' | 'garden' | 'friends' | 'dog' | 'ideas';

export const WEATHER: Record<Season, string[]> = {
  winter: [
    'Woke up to frost on the inside of the kitchen window, which is a new low for this old house.',
    'Grey all day, the kind of midwinter grey that makes the kettle work overtime.',
    'It snowed properly overnight. The street was silent until the first shovel started at seven.',
    'Bitterly cold, but the sky was that hard bright blue that almost makes up for it.',
    'Sleet, then rain, then sleet again. I gave up on the idea of going anywhere.',
    'The radiator in the study finally works, so I spent the morning there with two cups of coffee.',
  ],
  spring: [
    'First morning warm enough to open the windows. The whole house smelled of cut grass.',
    'Rain on and off all day, the soft kind that the garden loves and my hair does not.',
    'The magnolia across the road is out, absurdly pink against a white sky.',
    'Light until nearly eight now. I keep forgetting and being surprised by it.',
    'Windy and bright, blossom blowing down the street like confetti.',
    'Birds were loud before five. I lay there listening instead of getting up.',
  ],
  summer: [
    'Hot and still. We kept every blind down and ate dinner on the back step.',
    'A thunderstorm rolled through in the afternoon and cleared the air beautifully.',
    'Long golden evening, the kind where nobody wants to be the first to go inside.',
    'Too hot to think before ten, so I did the easy work first and the hard work late.',
    'Early swim at the lake before anyone else was there. Cold, then perfect.',
    'The tomatoes are finally turning. Sam counts them every morning like a farmer.',
  ],
  autumn: [
    'Crisp morning, leaves everywhere, and the first day I needed gloves.',
    'Fog sat on the river until almost noon. Everything looked like an old photograph.',
    'Rain hammered the skylight all night. I slept badly and loved it anyway.',
    'The maple by the bus stop turned red overnight. I stood and looked at it for a while.',
    'Dark by six now. Lit the first candle of the season at dinner.',
    'Bright cold day, smoke from someone’s wood stove drifting down the street.',
  ],
};

export const THEMES: Record<Theme, string[]> = {
  work: [
    'Long day of meetings. The roadmap review went better than I feared; Priya backed the simpler option and it carried the room.',
    'Spent the afternoon redrawing the onboarding flow for the third time. It is finally getting simpler rather than just different.',
    'Shipped the settings redesign today. Nobody noticed, which is exactly what good settings should feel like.',
    'Deadline week. I kept my head down, closed the door and got through the whole checklist by five.',
    'Ran my first workshop with the support team. They know more about our users than the rest of us put together.',
    'Got stuck on a layout problem all morning, went for a walk, and solved it on the bridge in about four minutes.',
    'A user interview left me rethinking half of what I assumed about how people search for old notes.',
    'Quiet day at work for once. I cleared my inbox and tidied the design files nobody ever tidies.',
    'Presented the new prototype. Mostly good questions, one I could not answer, which I will chew on tonight.',
    'Priya is leaving in a month. Happy for her, sad for us. We had a long lunch and talked about everything.',
  ],
  family: [
    'Called Mum on the way home. She has taken up watercolours and sent me a painting of the neighbour’s cat.',
    'Nora came over with the kids. Ben built a fort out of every cushion we own; Ada read to the dog.',
    'Sam and I finally sorted the spare room. Found a box of letters from when we first met and read them all.',
    'Dad’s check-up went fine. The whole family exhaled at once in the group chat.',
    'Video call with my grandmother, who wanted to know whether the internet is “going well”. It is not, Nan.',
    'Sunday lunch at Nora’s. Too much food, too many opinions, exactly right.',
    'Sam cooked without being asked and left a note on the stove. Small things.',
    'Helped Mum move the bookcase she has been wanting moved since March. It took ten minutes and an argument.',
  ],
  running: [
    'Easy five miles along the river. Legs heavy for the first two, then that lovely floating feeling.',
    'Tried the hill loop again and did not stop once. A small private triumph.',
    'Intervals at the track. I hate them while doing them and love them for the rest of the day.',
    'Long run, nine miles, the furthest since last spring. Ate an enormous breakfast afterwards.',
    'Skipped the run and walked instead. My knee has opinions and I am learning to listen to them.',
    'Ran with the club this morning. Chatted with a woman in her seventies who beat me by a minute and a half.',
    'Ran before work in the half dark. Only me, the street lamps and a fox who did not care about either.',
  ],
  reading: [
    'Finished the novel Leo lent me. The last chapter made me put the book down and stare at the wall for a bit.',
    'Read in bed until the words stopped making sense. Best part of the day.',
    'Started a book about the history of maps. Already bored Sam with three facts about longitude.',
    'Reread an old favourite on the train. It is funnier than I remembered and sadder too.',
    'Library haul: two novels, a book on bread, and a poetry collection I will pretend I am going to read.',
    'Abandoned a book at page ninety. Life is too short, and my pile is too tall.',
  ],
  cooking: [
    'Made the lentil soup from the stained recipe card. It tastes like every winter I have ever liked.',
    'Third attempt at sourdough. It rose! It is ugly! We ate half of it standing up.',
    'Cooked for six tonight. The risotto needed more time than I gave it, but nobody complained.',
    'Tried a new curry recipe and doubled the ginger by accident. Keeping that mistake forever.',
    'Lazy dinner of toast, eggs and whatever was left in the fridge. Perfect.',
    'Baked a lemon cake for the neighbours who took in our parcels all month.',
  ],
  garden: [
    'Planted out the beans and the courgettes. Knees muddy, back sore, very happy.',
    'Weeded for an hour and found the rosemary I thought had died. It has just been sulking.',
    'First strawberries of the year. Four of them. We shared them very fairly.',
    'Sam built a trellis out of old broom handles. It is not pretty but the peas do not mind.',
    'Watered everything at dusk with Juniper supervising. The beans have grown an inch since Tuesday.',
  ],
  friends: [
    'Dinner with Leo and Amara. We stayed at the table for four hours and nobody looked at a phone.',
    'Board game night. I lost badly and graciously; Leo won and was insufferable about it.',
    'Coffee with Jess, who is thinking about moving abroad. I helped her make a list and then cried a bit on the way home.',
    'Went to see a friend’s band in a tiny bar. They were loud and great and I am still slightly deaf.',
    'Picnic in the park with the old gang. Someone brought a ukulele. We forgave them eventually.',
    'Long phone call with Tom, who I have not spoken to properly in a year. It was like no time had passed.',
  ],
  dog: [
    'Juniper stole a whole croissant off the counter and showed no remorse whatsoever.',
    'Took Juniper to the big field. She ran in huge joyful circles for twenty minutes and then slept until dinner.',
    'Juniper met a cat who did not run away. She has not recovered from the shock.',
    'Vet visit for Juniper. Healthy, slightly chubby, very good girl. We are cutting back on the cheese.',
    'Juniper’s birthday. Five years old. She got a new ball and destroyed it by tea time.',
    'Evening walk with Juniper, the long way round by the allotments. She found every puddle.',
  ],
  ideas: [
    'Idea for the kitchen: open shelves where the ugly cupboard is. Sam is sceptical. I am drawing plans.',
    'Started a list of places I want to see before I turn forty. It is already too long, which is the point.',
    'Thinking about taking a pottery class. Mostly because I want to make our own mugs.',
    'Want to write more letters this year. Real ones, with stamps.',
    'Sketched out a little app for tracking the garden. I will never build it, but the sketch was fun.',
  ],
};

export const REFLECTIONS: string[] = [
  'Grateful for a quiet evening and nowhere to be.',
  'Three good things: the run, the soup, Sam laughing at the radio.',
  'Not a remarkable day, but a good one. I want to remember those too.',
  'I was short with Sam this morning and apologised tonight. Must do that sooner.',
  'Tired in the good way.',
  'Feeling a bit flat today, no real reason. Early night.',
  'Noticed I have been happier since I stopped checking email after dinner. Keeping that.',
  'Small win: I said no to something I did not want to do, politely, on the first try.',
  'Grateful for friends who text back at midnight.',
  'A day that went by too fast. Tomorrow I will look up more.',
  'Proud of myself for finishing something instead of starting something new.',
];

/** The vegetable patch in autumn. */
export const AUTUMN_GARDEN: string[] = [
  'Pulled up the last of the summer plants and put the beds to sleep under leaves.',
  'Planted garlic in the cold, which always feels like writing a note to my future self.',
  'Picked the last green tomatoes to ripen on the windowsill. Optimistic, as ever.',
];

/** A week by the sea in late July. */
export const TRIP: string[] = [
  'Drove to the coast. Juniper sat up the whole way with her nose in the gap of the window.',
  'Swam before breakfast. The sea was freezing and I whooped like a child.',
  'Rented bikes and rode along the dunes. Sam fell off once, very gracefully.',
  'Fish and chips on the harbour wall, gulls watching every single chip.',
  'Rain all day at the cottage. Jigsaw, books, a nap. Heaven.',
  'Walked to the lighthouse at low tide and back along the cliffs. Sunburnt ears.',
  'Last day. Walked the whole beach one more time and did not want to leave.',
];

/** Days that are about themselves, by month and day. */
export const HOLIDAYS: Record<string, { title: string; content: string; tags: string[] }> = {
  '01-01': {
    title: 'New year',
    content: 'No resolutions this year, just one intention: look up more.\n\nSlow morning, a long walk with Juniper, leftovers for lunch. Sam and I wrote down three things we want from the year and sealed them in an envelope for next December.',
    tags: ['new year', 'ideas'],
  },
  '12-25': {
    title: 'Christmas at Mum’s',
    content: 'Christmas at Mum’s. Nora’s kids were up at five; so, therefore, was everyone.\n\nToo much food, a paper crown that lasted all day, and Dad asleep in his chair by three as is tradition. Juniper got a stocking and ate the stocking.\n\nGrateful for all of them, even at full volume.',
    tags: ['family', 'gratitude'],
  },
  '06-14': {
    title: 'Juniper is five',
    content: 'Juniper’s fifth birthday. She got a new ball, a sausage, and a walk to the big field, and was sick of none of it.\n\nHard to believe she was once small enough to sleep in a shoebox.',
    tags: ['juniper'],
  },
};

/** Short texts sent to the journal number in the middle of a day, by theme. */
export const TEXTS: Record<Theme | 'moment', string[]> = {
  moment: [
    'Coffee on the back step at 6:40, birds going wild.',
    'Bus was late, met a very friendly dog at the stop. Net positive.',
    'Double rainbow over the car park. Everyone stopped to look.',
    'Found a fiver in last winter’s coat. Ridiculously pleased.',
    'Someone is practising trumpet three doors down. Getting better, honestly.',
    'Lunch in the park, sun on my face, ten quiet minutes.',
    'Power cut for an hour. Candles, cards, and the best conversation in weeks.',
    'Heard our song in the supermarket and danced a little by the bananas.',
  ],
  work: ['Presentation done. Hands were shaking but it went fine.', 'Inbox zero. Screenshot taken for posterity.', 'Long meeting, good outcome. Need a walk.', 'Fixed the bug that has haunted me for a week. It was a typo.'],
  family: ['Mum sent a photo of her first tomato. She is very proud.', 'Nora’s kids called to sing me a song they made up. It was about pasta.', 'Dinner at Mum’s. She still cuts my sandwiches into triangles.'],
  running: ['5k before work, new best time!', 'Rain run. Soaked, smiling.', 'Knee fine after the long run. Relief.', 'Ran past the lake at sunrise, steam coming off the water.'],
  reading: ['Missed my stop because of this book. Worth it.', 'Reading in the bath until the water went cold.'],
  cooking: ['Bread rose overnight. Kitchen smells amazing.', 'Made too much soup again. Neighbours getting some.'],
  garden: ['First courgette! Enormous already. How?', 'Slugs ate the lettuce. War.', 'Picked a whole bowl of peas. Ate most of them on the way inside.'],
  friends: ['Leo got the job!! Celebrating tonight.', 'Quiz night: we came second, robbed.', 'Jess is staying over, we have been talking since six.'],
  dog: ['Juniper rolled in something unspeakable. Bath time.', 'Juniper asleep on my feet while I work. Cannot move. Will not move.', 'Juniper barked at her own reflection for five minutes.'],
  ideas: ['Note to self: ask Sam about a weekend by the sea in May.', 'Idea: a shelf just for library books so they stop vanishing.'],
};

export const TITLES: Record<Theme | 'day', string[]> = {
  day: ['A good ordinary day', 'Slow Sunday', 'Small wins', 'Nothing much, and that is fine', 'A day to remember', 'Reset', 'Full and busy', 'Quiet one'],
  work: ['Deadline week', 'Shipped it', 'Meeting marathon', 'The bridge idea'],
  family: ['Sunday at Nora’s', 'Mum’s news', 'Letters in the spare room'],
  running: ['Hill loop, no stops', 'Nine miles', 'Club run'],
  reading: ['Book hangover', 'Library day'],
  cooking: ['Bread, finally', 'Soup weather'],
  garden: ['Beans in', 'First strawberries', 'Putting the beds to sleep'],
  friends: ['Four hours at the table', 'Game night'],
  dog: ['Juniper vs. the croissant', 'Big field day'],
  ideas: ['Plans', 'Before forty'],
};

/** Themes that fit a season (no vegetable patch in January). */
export function themesFor(season: Season, weekend: boolean): Theme[] {
  const base: Theme[] = ['family', 'running', 'reading', 'cooking', 'friends', 'dog', 'ideas'];
  if (season !== 'winter') base.push('garden', ...(weekend ? (['garden'] as const) : []));
  return weekend ? [...base, 'friends', 'family', 'running'] : [...base, 'work', 'work', 'work'];
}

/** Tags an entry about a theme may carry. */
export const THEME_TAGS: Record<Theme, string[]> = {
  work: ['work'],
  family: ['family'],
  running: ['running', 'health'],
  reading: ['reading'],
  cooking: ['cooking'],
  garden: ['garden'],
  friends: ['friends'],
  dog: ['juniper'],
  ideas: ['ideas'],
};
