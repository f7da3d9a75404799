import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { exportFileName, exportTime, headerOf, LOGIN_LOG_COLUMNS, OP_LOG_COLUMNS } from './log-export.ts';

describe('log export', () => {
  it('writes times as yyyy-MM-dd HH:mm:ss shifted by 8 hours', () => {
    expect(exportTime('2025-12-31T16:00:00.000Z')).toBe('2026-01-01 00:00:00');
    expect(exportTime('2025-06-01T01:02:03.999Z')).toBe('2025-06-01 09:02:03');
    expect(exportTime(null)).toBe('');
  });

  it('names the file by the log and the dates of the range', () => {
    expect(exportFileName('oplog', new Date('2025-01-01T00:00:00Z'), new Date('2025-12-31T15:59:59Z'))).toBe(
      'oplog_20250101-20251231.csv',
    );
    expect(
      exportFileName('loginlog', new Date('2024-12-31T16:00:00Z'), new Date('2025-01-31T16:00:00Z')),
    ).toBe('loginlog_20250101-20250201.csv');
  });

  it('has a header in every language, one name per column', () => {
    for (const columns of [OP_LOG_COLUMNS, LOGIN_LOG_COLUMNS]) {
      for (const lang of LANGUAGES) {
        const header = headerOf(columns as typeof OP_LOG_COLUMNS, lang);
        expect(header).toHaveLength(columns.length);
        expect(new Set(header).size).toBe(columns.length);
        for (const name of header) expect(name.trim()).not.toBe('');
      }
    }
    expect(headerOf(OP_LOG_COLUMNS, 'en')).not.toEqual(headerOf(OP_LOG_COLUMNS, 'zh-CN'));
  });
});
