/** The demo logins and the names both seed sizes draw from. */
export const DEMO_PASSWORD = 'LivelyDemo1';
export const DEMO_LOGIN = { email: 'demo@example.com', password: DEMO_PASSWORD };
export const DEMO_CREATOR = { email: 'creator@example.com', password: DEMO_PASSWORD };
export const DEMO_ADMIN = { email: 'admin@example.com', password: DEMO_PASSWORD };

export const FIRST = [
  'Ava',
  'Liam',
  'Mia',
  'Noah',
  'Zoe',
  'Eli',
  'Ivy',
  'Leo',
  'Ruby',
  'Max',
  'Nora',
  'Sam',
  'Luna',
  'Kai',
  'Aria',
  'Jude',
];
export const LAST = ['Stone', 'Rivera', 'Chen', 'Okafor', 'Novak', 'Haas', 'Silva', 'Moreau', 'Berg', 'Quinn'];
export const TOPICS = [
  'Studio session',
  'Behind the scenes',
  'Q&A night',
  'New series',
  'Travel diary',
  'Workout plan',
  'Recipe drop',
  'Playlist',
];
/** A creator's bio from their first name, in the same rotation as TOPICS. */
const BIO_TEMPLATES = [
  'records a studio session every week.',
  'shares what happens behind the scenes.',
  'hosts a Q&A night every Friday.',
  'starts a new series every month.',
  'keeps a travel diary from the road.',
  'posts a workout plan every Monday.',
  'drops a new recipe every week.',
  'curates a playlist for every mood.',
];
export const creatorBio = (firstName: string, i: number) => `${firstName} ${pick(BIO_TEMPLATES, i)}`;
export const CITIES = ['Berlin', 'Austin', 'Lisbon', 'Toronto', 'Seoul'];

export const pick = <T>(list: readonly T[], i: number): T => list[i % list.length];
