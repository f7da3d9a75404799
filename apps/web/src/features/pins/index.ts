/** What other features use of offline PINs: one lock's PIN list (the monitor's dynamic-passwords tab). */

export { PinList } from './pin-list.tsx';
