import { describe, expect, it } from 'vitest';
import { nextOrder } from './SortableHead.js';

describe('nextOrder', () => {
  it('sorts a new column descending first', () => {
    expect(nextOrder('', 'name')).toBe('-name');
    expect(nextOrder('created_time', 'name')).toBe('-name');
    expect(nextOrder('-created_time', 'name')).toBe('-name');
  });

  it('then ascending, then back to the default order', () => {
    expect(nextOrder('-name', 'name')).toBe('name');
    expect(nextOrder('name', 'name')).toBe('');
  });

  it('does not take a column for another whose name it starts with', () => {
    expect(nextOrder('-name_full', 'name')).toBe('-name');
  });
});
