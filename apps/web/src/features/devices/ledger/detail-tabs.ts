import { type FeatureFlagValues, flagOn } from '@uiot/contracts';

/**
 * The tabs of a device's details and the feature flag each needs (spec §2 device ledger tabs, §6). The
 * glossary, camera association and photo record tabs come with their own issues.
 */
export const DETAIL_TABS = [
  { key: 'lockCodes', flag: 'SupportRfid' },
  { key: 'adjustValues', flag: 'SupportAdjustValue' },
  { key: 'attachments', flag: 'SupportAttachment' },
] as const;
export type DetailTab = (typeof DETAIL_TABS)[number]['key'];

/** The tabs shown with these flags, in their order. */
export function visibleDetailTabs(flags: FeatureFlagValues): DetailTab[] {
  return DETAIL_TABS.filter((tab) => flagOn(flags, tab.flag)).map((tab) => tab.key);
}
