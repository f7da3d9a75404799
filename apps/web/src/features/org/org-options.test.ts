import { describe, expect, it } from 'vitest';
import { roleOptions } from './org-options.ts';

describe('roleOptions', () => {
  it('offers the roles the server says the user may assign, and shows the others disabled', () => {
    expect(
      roleOptions([
        { id: 'r1', name: 'Operators', assignable: true },
        { id: 'admin', name: 'admin', assignable: false },
      ]),
    ).toEqual([
      { value: 'r1', label: 'Operators', disabled: false },
      { value: 'admin', label: 'admin', disabled: true },
    ]);
  });
});
