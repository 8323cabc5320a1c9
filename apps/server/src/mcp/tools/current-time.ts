import { z } from 'zod';
import { AppError } from '../../platform/errors.js';
import { defineTool } from './tool.js';

const TIME_ZONE_MAX_LENGTH = 100;

/** The formatter of an IANA zone; an unknown name is the caller's mistake. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      timeZoneName: 'longOffset',
    });
  } catch {
    throw AppError.badRequest(
      `unknown time zone "${timeZone}": use an IANA name such as Europe/Paris or Asia/Shanghai`,
    );
  }
}

/** `2026-12-06T21:57:11.123+01:00`: the moment as the zone's clocks show it, with the zone's offset. */
export function isoInZone(moment: Date, formatter: Intl.DateTimeFormat): string {
  const parts = formatter.formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  const date = `${part('year')}-${part('month')}-${part('day')}`;
  return `${date}T${part('hour')}:${part('minute')}:${part('second')}.${part('fractionalSecond')}${offset}`;
}

/** The server process's zone (TZ), the one the dashboard's days are counted in. */
function serverTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export const currentTimeTool = defineTool({
  name: 'current_time',
  description:
    "The current date and time as ISO 8601 text, in the given IANA time zone (default: the server's), " +
    'with the same moment in UTC and as Unix seconds.',
  inputSchema: z.object({
    timezone: z
      .string()
      .max(TIME_ZONE_MAX_LENGTH)
      .optional()
      .describe('An IANA time zone name such as "Asia/Shanghai" or "America/New_York"'),
  }),
  outputSchema: z.object({ timezone: z.string(), time: z.string(), utc: z.string(), unix: z.number() }),
  run: async ({ timezone }) => {
    const zone = timezone?.trim() || serverTimeZone();
    const formatter = formatterOf(zone);
    const now = new Date();
    return {
      // As the caller spelled it: ICU names some zones by their old names (Asia/Kolkata → Asia/Calcutta).
      timezone: zone,
      time: isoInZone(now, formatter),
      utc: now.toISOString(),
      unix: Math.floor(now.getTime() / 1000),
    };
  },
});
