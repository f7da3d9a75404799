/**
 * The feature flags of spec §6 with their defaults, declared once in the contract (the console and the
 * server read the same names); here they are rows of the parameter table, group `feature`.
 */
export { FEATURE_FLAGS, type FeatureFlagDefinition } from '@uiot/contracts';
