/**
 * The names of the generated values that accompany a named type. One place decides them,
 * so emitters that refer to each other's declarations agree.
 */
export function valuesName(type: string): string {
  return `${type}Values`;
}
