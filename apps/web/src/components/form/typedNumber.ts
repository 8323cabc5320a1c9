/** A number field's text as a number; empty text reads as NaN, so a cleared field is refused rather than sent as 0. */
export function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}
