import { v4, v7 } from 'uuid';

/** mulberry32: small, fast and good enough for picking things. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to and in is it that for on with as this be are was by not at from or have an they which one you all were her would ' +
  'there their what so up out if about who get go me when make can like time no just him know take people into year your good ' +
  'some could them see other than then now look only come its over think also back after use two how our work first well way even ' +
  'new want because any these give day most us react node typescript postgres docker kubernetes rust python golang css html api ' +
  'database index query cache deploy build test bug fix release version feature design review performance memory thread async ' +
  'promise stream event projection schema migration backup server client browser mobile android ios linux windows macos cloud'
).split(' ');
export const FIRST_NAMES =
  'Ada Alan Grace Linus Margaret Dennis Barbara Ken Radia Tim Guido Bjarne Anders Brendan Yukihiro Rob Frances Edsger Donald Leslie Sophie Hedy Katherine Mary Ida'.split(
    ' ',
  );
export const LAST_NAMES =
  'Lovelace Turing Hopper Torvalds Hamilton Ritchie Liskov Thompson Perlman Berners-Lee Rossum Stroustrup Hejlsberg Eich Matsumoto Pike Allen Dijkstra Knuth Lamport Wilson Lamarr Johnson Jackson Rhodes'.split(
    ' ',
  );

/** Every random choice of a synthetic log, from one seed: numbers, picks, ids and text. */
export function randomness(seed: number) {
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  /** 16 bytes from the seed: the random bits of an id (one buffer: an id is made of it at once). */
  const random = new Uint8Array(16);
  const seeded = () => {
    for (let i = 0; i < 16; i += 4) {
      const r = (rand() * 4294967296) >>> 0;
      random[i] = r >>> 24;
      random[i + 1] = (r >>> 16) & 255;
      random[i + 2] = (r >>> 8) & 255;
      random[i + 3] = r & 255;
    }
    return random;
  };
  const words = (min: number, max: number) => {
    const count = min + int(max - min + 1);
    let text = pick(WORDS);
    for (let i = 1; i < count; i++) text += ' ' + pick(WORDS);
    return text;
  };
  return {
    rand,
    int,
    pick,
    /** A random id (v4), as the identity provider names users and a request is named. */
    uuid: () => v4({ random: seeded() }),
    /** An id as the command service names one (command-service/src/ids.ts): a UUIDv7 of the command's time. */
    timeId: (msecs: number) => v7({ msecs, random: seeded() }),
    /** Words from a small vocabulary, the first capitalised. */
    sentence: (min: number, max: number) => {
      const text = words(min, max);
      return text[0]!.toUpperCase() + text.slice(1);
    },
  };
}

export type Randomness = ReturnType<typeof randomness>;
