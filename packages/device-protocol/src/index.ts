/** Wire formats of the lock devices; every function here is pure (no I/O, no clock). */

export * from './chirpstack.ts';
export { payloadText } from './json-input.ts';
export * from './limits.ts';
export * from './lock-payload.ts';
export * from './message.ts';
export * from './native.ts';
export * from './nbiot.ts';
export * from './offline-pin.ts';
export * from './recorded.ts';
export * from './tcp-frame.ts';
export * from './topics.ts';
