/**
 * The typed arrays that hold the values of Arrow's fixed-width numeric types,
 * named once for every lance-nd package.
 */

/** The typed arrays that hold values as JS numbers (8- to 32-bit integers, Float32, Float64). */
export type NumberArray =
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/** The typed arrays that hold 64-bit integers as bigints. */
export type BigIntArray = BigInt64Array | BigUint64Array;

/** A typed array holding the values of a numeric Arrow type (Float16 as its Uint16 bits). */
export type NumericArray = NumberArray | BigIntArray;
