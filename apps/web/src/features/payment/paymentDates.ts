/**
 * The order filter's dates: `<input type="date">` speaks "YYYY-MM-DD" in the admin's own time
 * zone, the API speaks unix seconds. The end date includes its whole day.
 */
export function dateInputToSeconds(text: string, edge: 'start' | 'end'): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return 0;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const start = new Date(year, month - 1, day).getTime() / 1000;
  return edge === 'start' ? start : new Date(year, month - 1, day + 1).getTime() / 1000 - 1;
}

export function secondsToDateInput(seconds: number): string {
  if (!seconds) return '';
  const date = new Date(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
