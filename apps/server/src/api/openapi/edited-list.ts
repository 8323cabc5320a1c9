import { idParam } from '@one-hub/contracts';
import type { z } from 'zod';
import type { Access, ApiOperation } from './operation.js';

/** A resource edited the reference's way: list and writes at `base`, one record at `base` + `:id`. */
export interface EditedList {
  /** `/api/plan/`: the list (GET), creation (POST) and update (PUT). */
  base: string;
  /** The record's path after `base`; `:id` unless the route restricts it (`:id(^\d+$)`). */
  idPath?: string;
  /** `a plan`, `plans`: the words of the summaries. */
  one: string;
  many: string;
  access: Access;
  /** Who may read the list when it is not `access` (a public list). */
  listAccess?: Access;
  /** The list's query; a list with one is paged. */
  listQuery?: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
  /** PUT's query and what it changes (`status_only=1`). */
  updateQuery?: z.ZodType;
  updateDescription?: string;
  readDescription?: string;
}

/** The reference's `PUT ?status_only=1`: a body of `{id, status}` changes only the status. */
export const STATUS_ONLY = 'With `status_only=1` the body is `{id, status}` and only the status changes.';

/** The five operations of an edited list, in the order its routes are listed. */
export function editedListOperations(list: EditedList): ApiOperation[] {
  const { base, access } = list;
  const record = `${base}${list.idPath ?? ':id'}`;
  const listOperation: ApiOperation = { method: 'get', path: base, summary: `List ${list.many}`, access };
  if (list.listAccess) listOperation.access = list.listAccess;
  if (list.listQuery) Object.assign(listOperation, { query: list.listQuery, paged: true });
  const update: ApiOperation = { method: 'put', path: base, summary: `Update ${list.one}`, access, body: list.update };
  if (list.updateQuery) update.query = list.updateQuery;
  if (list.updateDescription) update.description = list.updateDescription;
  const read: ApiOperation = { method: 'get', path: record, summary: `Read ${list.one}`, access, params: idParam };
  if (list.readDescription) read.description = list.readDescription;
  return [
    listOperation,
    { method: 'post', path: base, summary: `Create ${list.one}`, access, body: list.create },
    update,
    read,
    { method: 'delete', path: record, summary: `Delete ${list.one}`, access, params: idParam },
  ];
}
