import { describe, expect, it } from 'vitest';
import { cellText, cellValue, importTime, listValue, numberText, sheetTime, yesNo } from './import-cells.ts';

describe('cell values', () => {
  it('reduce rich text, formulas and hyperlinks to what the cell shows', () => {
    expect(cellValue({ richText: [{ text: 'Line ' }, { text: '1' }] })).toBe('Line 1');
    expect(cellValue({ formula: 'A1&"x"', result: 'ax' })).toBe('ax');
    expect(cellValue({ formula: 'A1' })).toBeNull();
    expect(cellValue({ text: 'site', hyperlink: 'https://example.com' })).toBe('site');
    expect(cellValue({ error: '#N/A' })).toBe('#N/A');
    expect(cellValue(undefined)).toBeNull();
    expect(cellValue(12)).toBe(12);
  });

  it('write numbers as digits, never in exponent form', () => {
    expect(numberText(861234567890123)).toBe('861234567890123');
    expect(numberText(1e21)).toBe('1000000000000000000000');
    expect(numberText(113.1234567)).toBe('113.1234567');
    expect(cellText(861234567890123)).toBe('861234567890123');
    expect(cellText('  padded ')).toBe('padded');
    expect(cellText(null)).toBe('');
  });

  it('read yes and no in every language', () => {
    for (const yes of ['yes', 'YES', 'true', '1', '是', true, 1]) expect(yesNo(yes)).toBe(true);
    for (const no of ['no', 'False', '0', '否', false, 0]) expect(yesNo(no)).toBe(false);
    expect(yesNo('')).toBeNull();
    expect(yesNo(null)).toBeNull();
    expect(yesNo('maybe')).toBeUndefined();
  });

  it('read times as the console wall time (UTC+8) unless a zone is written', () => {
    expect(importTime('2026-03-01 08:00')).toBe('2026-03-01T00:00:00.000Z');
    expect(importTime('2026/3/1 08:00:30')).toBe('2026-03-01T00:00:30.000Z');
    expect(importTime('2026-03-01')).toBe('2026-02-28T16:00:00.000Z');
    expect(importTime('2026-03-01T08:00:00Z')).toBe('2026-03-01T08:00:00.000Z');
    expect(importTime('2026-03-01T08:00:00+02:00')).toBe('2026-03-01T06:00:00.000Z');
    // A date cell: exceljs gives the wall time as if it were UTC.
    expect(importTime(new Date(Date.UTC(2026, 2, 1, 8, 0, 0)))).toBe('2026-03-01T00:00:00.000Z');
    expect(importTime('')).toBeNull();
    expect(importTime('2026-02-30 08:00')).toBe('2026-02-30 08:00');
    expect(importTime('2026-03-01 24:00')).toBe('2026-03-01 24:00');
    expect(importTime('tomorrow')).toBe('tomorrow');
  });

  it('write times as the console wall time', () => {
    expect(sheetTime(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01 08:00:00');
    expect(sheetTime(null)).toBe('');
  });

  it('match closed lists ignoring case', () => {
    expect(listValue(['ChinaTelecom', 'TcpDirect'], 'tcpdirect')).toBe('TcpDirect');
    expect(listValue(['ChinaTelecom'], 'Telecom')).toBeUndefined();
  });
});
