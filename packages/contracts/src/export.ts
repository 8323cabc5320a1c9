import { z } from 'zod';

/** What the streamed exports write: CSV with a header line, or one JSON object per line. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `format=csv|jsonl`, csv when absent or empty; anything else names the parameter. */
export const exportFormat = z.preprocess(
  (value) => (value === '' || value === undefined ? 'csv' : value),
  z.enum(EXPORT_FORMATS, { error: `format must be ${EXPORT_FORMATS.join(' or ')}` }),
);
