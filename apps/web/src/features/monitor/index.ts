/**
 * What other features use of the runtime monitor; everything else in this folder is its own. The home page
 * of HomePageType `device` shows the monitor's counters, kept live as on the monitor.
 */
export { RuntimeSummaryCard } from './runtime-summary.tsx';
export { useLiveRuntime } from './use-live-runtime.ts';
