import { describe, expect, it } from 'vitest';
import { SIGNATURE_MAX_BYTES, signatureFileProblem } from './signature-file.ts';

describe('signatureFileProblem', () => {
  it('takes one png or jpg image of at most 256 KiB', () => {
    expect(signatureFileProblem({ name: 'sign.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(
      signatureFileProblem({ name: 'sign.JPG', type: 'image/jpeg', size: SIGNATURE_MAX_BYTES }),
    ).toBeNull();
    expect(signatureFileProblem({ name: 'sign.jpeg', type: 'image/jpeg', size: 10 })).toBeNull();
  });

  it('refuses other types, a type that does not match the name, and larger files', () => {
    expect(signatureFileProblem({ name: 'sign.gif', type: 'image/gif', size: 10 })).toBe('type');
    expect(signatureFileProblem({ name: 'sign.png', type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(signatureFileProblem({ name: 'sign.svg', type: 'image/png', size: 10 })).toBe('type');
    expect(signatureFileProblem({ name: 'sign.png', type: 'image/png', size: SIGNATURE_MAX_BYTES + 1 })).toBe(
      'size',
    );
  });
});
