import { readFileSync } from 'node:fs';
import path from 'node:path';
import { devicePropertyForm, LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { isMasterPropertyCode, knownMasterProperties, type MasterProperties } from './known-properties.ts';
import { evaluateItem } from './warn-rule-evaluator.ts';

/** A report holding every Master property, each with a value of the type the catalogue gives it. */
const full: Required<MasterProperties> = {
  lockState: 'closed',
  doorState: 'open',
  battery: 55,
  rssi: -80,
  runState: 'lowPower',
  online: false,
};

describe('known Master properties', () => {
  it('are the protocol fields, with units where a number has one', () => {
    expect(knownMasterProperties.map((p) => [p.code, p.valueType, p.unit])).toEqual([
      ['lockState', 'string', null],
      ['doorState', 'string', null],
      ['battery', 'number', '%'],
      ['rssi', 'number', 'dBm'],
      ['runState', 'string', null],
      ['online', 'boolean', null],
    ]);
    expect(knownMasterProperties.every((p) => p.origin === 'Master')).toBe(true);
  });

  it('are valid catalogue entries of a device type', () => {
    for (const p of knownMasterProperties) {
      const form = {
        deviceTypeId: 't1',
        code: p.code,
        name: p.code,
        origin: p.origin,
        valueType: p.valueType,
      };
      expect(devicePropertyForm.safeParse({ ...form, unit: p.unit ?? undefined }).success, p.code).toBe(true);
    }
  });

  it('are each read by the evaluator with the value type the catalogue gives', () => {
    for (const p of knownMasterProperties) {
      const item = {
        propCode: p.code,
        propOrigin: 'Master' as const,
        propVal: String(full[p.code]),
        valType: p.valueType,
        conditionType: 'Eq' as const,
      };
      expect(evaluateItem(item, { master: full, extension: {} }), p.code).toBe('holds');
    }
  });

  it('offer the reported values of text properties as choices', () => {
    const values = Object.fromEntries(knownMasterProperties.map((p) => [p.code, p.values]));
    expect(values.doorState).toEqual(['open', 'closed']);
    expect(values.lockState).toEqual(['open', 'closed']);
    expect(values.runState).toEqual(['normal', 'damaged', 'lowPower', 'timeOutNotClosed']);
    expect(values.battery).toBeNull();
  });

  it("name their text with the runtime monitor's column, present in every language", () => {
    for (const lang of LANGUAGES) {
      const file = path.resolve(import.meta.dirname, `../../../../web/src/locales/${lang}/monitor.json`);
      const columns = JSON.parse(readFileSync(file, 'utf8')).runtime.column as Record<string, string>;
      for (const p of knownMasterProperties) {
        expect(p.nameKey).toBe(`monitor:runtime.column.${p.code}`);
        expect(columns[p.code], `${lang} ${p.code}`).toBeTruthy();
      }
    }
  });

  it("name the values of a text field with the runtime monitor's words, present in every language", () => {
    for (const lang of LANGUAGES) {
      const file = path.resolve(import.meta.dirname, `../../../../web/src/locales/${lang}/monitor.json`);
      const monitor = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
      for (const p of knownMasterProperties) {
        expect(p.valuesKey === null, p.code).toBe(p.values === null);
        if (!p.valuesKey || !p.values) continue;
        const [namespace, group] = p.valuesKey.split(':');
        expect(namespace).toBe('monitor');
        for (const value of p.values)
          expect(monitor[group!]?.[value], `${lang} ${p.code} ${value}`).toBeTruthy();
      }
    }
  });

  it('are recognised by code, own codes only', () => {
    expect(isMasterPropertyCode('battery')).toBe(true);
    expect(isMasterPropertyCode('temperature')).toBe(false);
    expect(isMasterPropertyCode('constructor')).toBe(false);
  });
});
