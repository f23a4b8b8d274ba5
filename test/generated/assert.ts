/** Type-level assertions for the type tests in this folder, which only compile. */

/** True when A and B are the same type, not merely assignable to each other. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when its type argument is `true`. */
export function expectTrue<T extends true>(): T | undefined {
  return undefined;
}

/**
 * `true` when every member of union U is exactly what narrowing U on its member's tag K
 * gives, else the members that do not narrow.
 */
export type NarrowsOn<U, K extends keyof U, All = U> = U extends unknown
  ? Equal<Extract<All, Record<K, U[K]>>, U> extends true
    ? true
    : ["does not narrow on its tag", U]
  : never;

/** The member of a keyed union in which K is the key present. */
export type Variant<U, K extends PropertyKey> = Extract<U, Record<K, unknown>>;
