// @vitest-environment jsdom
// The client error type comes with the i18n set-up, which sets the page's language.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.js';
import { describeError } from '../../lib/notify.js';
import { checkResolver, SERVER_ERROR, sameNamedField, showServerError } from './checkedForm.js';

type Values = { name: string; ratio: string };
const values: Values = { name: 'n', ratio: 'x' };
const options = { fields: {}, shouldUseNativeValidation: false } as never;

describe('checked forms', () => {
  it('hands on the body of a passing check, and no errors', async () => {
    const resolve = checkResolver<Values, { name: string }, keyof Values>((v) => ({
      ok: true,
      body: { name: v.name },
    }));
    expect(await resolve(values, undefined, options)).toEqual({ values: { name: 'n' }, errors: {} });
  });

  it("puts a failing check's messages on their fields and the unplaced ones above the form", async () => {
    const resolve = checkResolver<Values, never, keyof Values>(() => ({
      ok: false,
      errors: { ratio: 'not a number', name: undefined },
      unplaced: ['one', 'two'],
    }));
    expect(await resolve(values, undefined, options)).toEqual({
      values: {},
      errors: {
        ratio: { type: 'check', message: 'not a number' },
        root: { server: { type: 'check', message: 'one two' } },
      },
    });
  });

  it('shows a refusal beside the field the answer names when the form has it, else above the form', () => {
    const setError = vi.fn();
    const fieldOf = sameNamedField<keyof Values>(['name', 'ratio']);
    const shown = (error: ApiError) => ({ type: 'server', message: describeError(error) });
    const taken = new ApiError(409, "name: 'a' is taken", 'name');
    expect(showServerError<Values>(setError, taken, fieldOf)).toBe('name');
    expect(setError).toHaveBeenLastCalledWith('name', shown(taken));
    // A field this form lacks, and a refusal naming none (whatever its text starts with), go above.
    const foreign = new ApiError(400, 'id: gone', 'id');
    expect(showServerError<Values>(setError, foreign, fieldOf)).toBeUndefined();
    expect(setError).toHaveBeenLastCalledWith(SERVER_ERROR, shown(foreign));
    const unnamed = new ApiError(400, 'ratio: bad');
    showServerError<Values>(setError, unnamed, fieldOf);
    expect(setError).toHaveBeenLastCalledWith(SERVER_ERROR, shown(unnamed));
  });
});
