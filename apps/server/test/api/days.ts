function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * Noon (local) `days` before today: Unix seconds and that day as YYYY-MM-DD. Noon keeps the
 * moment inside its day whatever the machine's time zone offset.
 */
export function daysAgo(days: number): { at: number; date: string } {
  const today = new Date();
  const noon = new Date(today.getFullYear(), today.getMonth(), today.getDate() - days, 12);
  return {
    at: Math.floor(noon.getTime() / 1000),
    date: `${noon.getFullYear()}-${pad(noon.getMonth() + 1)}-${pad(noon.getDate())}`,
  };
}
