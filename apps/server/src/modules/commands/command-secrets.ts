/**
 * Secrets among a device command's parameters (a permanent password, a stored PIN): they go to the lock as
 * they are, the records show only which parameters were sent, and once the command has ended (answered,
 * failed, expired) nothing needs them, so they are not kept: the stored parameters are masked too.
 */
import { hasSecretWord } from '../../lib/secret-names.ts';
import type { DeviceCommandRecord } from './commands.schema.ts';

type Params = NonNullable<DeviceCommandRecord['params']>;

/** Commands whose every parameter is a secret. */
const SECRET_COMMANDS = new Set(['setPassword', 'setPin']);
export const MASKED_VALUE = '******';

/** The parameters with every secret replaced by `MASKED_VALUE`; null when there is no secret among them. */
export function maskedParams(cmdCode: string, params: DeviceCommandRecord['params']): Params | null {
  if (!params) return null;
  const secret = SECRET_COMMANDS.has(cmdCode);
  let masked: Params | null = null;
  for (const [name, value] of Object.entries(params)) {
    if ((secret || hasSecretWord(name)) && value !== MASKED_VALUE) {
      masked ??= { ...params };
      masked[name] = MASKED_VALUE;
    }
  }
  return masked;
}
