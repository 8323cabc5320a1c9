/** Current time in Unix seconds, the unit every timestamp column uses. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
