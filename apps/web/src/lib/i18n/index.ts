export * from './i18n.ts';
export * from './language-switch.tsx';
export * from './multi-language.ts';
export * from './use-lang.ts';
