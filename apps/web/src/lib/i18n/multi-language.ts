import { getSupportMultiLanguage } from '@uiot/contracts';
import { usePublicValue } from '../request/public-value.ts';

/** Whether the language selector is offered (public parameter, spec §7); asked once per page load. */
export function useSupportsMultiLanguage(): boolean {
  return usePublicValue(getSupportMultiLanguage, Number.POSITIVE_INFINITY) === true;
}
