export * from './i18n.ts';
export * from './language-switch.tsx';
export * from './use-lang.ts';
