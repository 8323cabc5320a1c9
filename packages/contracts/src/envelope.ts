import { z } from 'zod';

/** The management API envelope: every `/api` answer has this shape. */
export interface ApiResponse<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
  /** On a refusal about one input field: its name or path (`price.input`), where a form shows the message. */
  field?: string;
}

/** Paged lists put this object in `data`. */
export interface Paged<T> {
  data: T[];
  page: number;
  size: number;
  total_count: number;
}

/** The refusal every `/api` failure answers with its real HTTP status (described in the OpenAPI document). */
export const apiFailureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  field: z.string().optional(),
});

/** The success envelope around a `data` of the given schema. */
export function apiSuccessSchema<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), message: z.string(), data: data.optional() });
}

/** The paged shape (`Paged<T>`) of a list whose entries have the given schema. */
export function pagedSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    total_count: z.number().int(),
  });
}
