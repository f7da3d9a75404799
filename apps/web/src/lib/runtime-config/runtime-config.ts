import { type RuntimeConfig, runtimeConfig } from '@uiot/contracts';

export const RUNTIME_CONFIG_URL = '/config.json';

/** Why `/config.json` could not be used: it is missing (spec §8 '[APP]: ...') or it does not parse. */
export class RuntimeConfigError extends Error {
  constructor(
    readonly reason: 'missing' | 'invalid',
    cause?: unknown,
  ) {
    super(`runtime configuration ${reason}`, { cause });
    this.name = 'RuntimeConfigError';
  }
}

let loaded: RuntimeConfig | null = null;

/** Loads the console's runtime configuration; the console cannot start without it. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let body: unknown;
  try {
    const response = await fetchImpl(RUNTIME_CONFIG_URL, { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (cause) {
    throw new RuntimeConfigError('missing', cause);
  }
  const parsed = runtimeConfig.safeParse(body);
  if (!parsed.success) throw new RuntimeConfigError('invalid', parsed.error);
  loaded = parsed.data;
  return parsed.data;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!loaded) throw new Error('The runtime configuration is read before it is loaded');
  return loaded;
}
