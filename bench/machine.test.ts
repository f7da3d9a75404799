import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { machineFigures } from './machine.ts';

describe('machineFigures', () => {
  it('names the processor and its cores and times the reference work in tenths of a millisecond', () => {
    const figures = machineFigures();
    expect(figures.cpu).toBe(cpus()[0]!.model.trim());
    expect(figures.cores).toBe(cpus().length);
    expect(figures.referenceMs).toBeGreaterThan(0);
    expect(Number.isFinite(figures.referenceMs)).toBe(true);
    expect(Math.round(figures.referenceMs * 10)).toBe(figures.referenceMs * 10);
  });
});
