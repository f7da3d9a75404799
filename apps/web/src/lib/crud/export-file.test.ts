import { describe, expect, it } from 'vitest';
import { exportFileName, extensionOfType } from './export-file.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('extension of an exported file', () => {
  it('reads the content type without its parameters, ignoring case', () => {
    expect(extensionOfType('text/csv; charset=utf-8')).toBe('csv');
    expect(extensionOfType('text/csv;charset=utf-8')).toBe('csv');
    expect(extensionOfType(XLSX)).toBe('xlsx');
    expect(extensionOfType('Application/PDF')).toBe('pdf');
    expect(extensionOfType('application/octet-stream')).toBeNull();
    expect(extensionOfType('')).toBeNull();
    expect(extensionOfType(null)).toBeNull();
  });
});

describe('name of an exported file', () => {
  const base = { title: '设备台账', stamp: '20260102030405' };

  it('keeps the name the server gave (Content-Disposition)', () => {
    expect(exportFileName({ ...base, contentType: XLSX, serverName: 'devices_20260101.xlsx' })).toBe(
      'devices_20260101.xlsx',
    );
    expect(exportFileName({ ...base, contentType: 'text/csv', serverName: 'login-log.csv' })).toBe(
      'login-log.csv',
    );
  });

  it('gives a server name without extension the one of its type', () => {
    expect(exportFileName({ ...base, contentType: XLSX, serverName: 'devices' })).toBe('devices.xlsx');
  });

  it('makes a server name safe for the file system', () => {
    expect(exportFileName({ ...base, contentType: XLSX, serverName: 'a/b:c.xlsx' })).toBe('a_b_c.xlsx');
  });

  it('names an unnamed file after the page and the time, with the extension of its type', () => {
    expect(exportFileName({ ...base, contentType: XLSX })).toBe('设备台账_20260102030405.xlsx');
    expect(exportFileName({ ...base, contentType: 'text/csv; charset=utf-8' })).toBe(
      '设备台账_20260102030405.csv',
    );
  });

  it('takes an untyped file for CSV (the console exports CSV) and an unknown type for binary', () => {
    expect(exportFileName({ ...base })).toBe('设备台账_20260102030405.csv');
    expect(exportFileName({ ...base, contentType: '' })).toBe('设备台账_20260102030405.csv');
    expect(exportFileName({ ...base, contentType: 'application/octet-stream' })).toBe(
      '设备台账_20260102030405.bin',
    );
  });
});
