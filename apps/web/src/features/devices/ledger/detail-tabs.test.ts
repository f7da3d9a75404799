import { describe, expect, it } from 'vitest';
import { visibleDetailTabs } from './detail-tabs.ts';

describe('device details tabs', () => {
  it('shows lock codes, correction values and attached devices by their flags, in that order', () => {
    expect(
      visibleDetailTabs({ SupportRfid: 'true', SupportAdjustValue: 'true', SupportAttachment: 'true' }),
    ).toEqual(['lockCodes', 'adjustValues', 'attachments']);
    expect(visibleDetailTabs({ SupportRfid: 'false', SupportAdjustValue: 'true' })).toEqual(['adjustValues']);
    expect(visibleDetailTabs({ SupportAttachment: 'true', SupportRfid: 'true' })).toEqual([
      'lockCodes',
      'attachments',
    ]);
    expect(visibleDetailTabs({})).toEqual([]);
  });
});
