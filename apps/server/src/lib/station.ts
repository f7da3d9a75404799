/** The station a single-site installation runs as: created at first start, the home of every device and unit. */
export const DEFAULT_STATION = { id: 'UIOT-001', name: 'UIOT' };
