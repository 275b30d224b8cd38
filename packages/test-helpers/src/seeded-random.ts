/**
 * A seeded pseudo-random generator for property tests (pure-rand's
 * xoroshiro128+): the same seed gives the same numbers, so a failing case
 * repeats.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** Uniform numbers in [0, 1) from `seed` (an integer). */
export function seededRandom(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => uniformFloat64(generator);
}
