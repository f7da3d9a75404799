import { DEVICE_PROTOCOLS, LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { protocolLabel } from './protocol.ts';

describe('protocolLabel', () => {
  it('names every protocol of the contracts, distinctly, in every language', () => {
    for (const lang of LANGUAGES) {
      const t = i18n.getFixedT(lang);
      const labels = DEVICE_PROTOCOLS.map((protocol) => protocolLabel(t, protocol));
      for (const [index, label] of labels.entries()) {
        expect(label, `${lang} ${DEVICE_PROTOCOLS[index]}`).not.toMatch(/protocol\./);
        expect(label.trim()).not.toBe('');
      }
      expect(new Set(labels).size, lang).toBe(DEVICE_PROTOCOLS.length);
    }
  });

  it('reads the adapters by the names operators know', () => {
    const en = i18n.getFixedT('en');
    expect(protocolLabel(en, 'chirpstack')).toBe('LoRaWAN (ChirpStack)');
    expect(protocolLabel(en, 'nbiot')).toBe('NB-IoT');
    expect(protocolLabel(en, 'tcp')).toBe('TCP direct');
    expect(protocolLabel(i18n.getFixedT('zh-CN'), 'tcp')).toBe('TCP 直连');
    expect(protocolLabel(i18n.getFixedT('zh-TW'), 'mqtt')).toBe('MQTT');
  });
});
