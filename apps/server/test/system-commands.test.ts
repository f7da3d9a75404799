import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { paramCommandName, SYSTEM_COMMAND_NAMES, systemCommandOf } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { PARAM_COMMAND } from '../src/modules/commands/param-send.service.ts';
import { PASSWORD_COMMAND } from '../src/modules/devices/replacement.service.ts';
import { DELETE_PIN_COMMAND, SET_PIN_COMMAND } from '../src/modules/pins/pin.service.ts';
import { REMOTE_COMMANDS } from '../src/modules/tasks/operation.service.ts';

const SRC = path.join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * The commands the server makes itself are stored with a system name, which the console shows in the
 * reader's language (SYSTEM_COMMAND_NAMES); a command missing there is shown by its raw English name.
 */
describe('commands the server issues itself', () => {
  it('names every command code the server writes as a system command', () => {
    const codes = sources(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bcmdCode:\s*'(\w+)'/g)].map((m) => m[1]!),
    );
    expect(codes.length).toBeGreaterThanOrEqual(5);
    expect(codes.filter((code) => !Object.hasOwn(SYSTEM_COMMAND_NAMES, code))).toEqual([]);
  });

  it('stores each with the name the console recognises', () => {
    for (const command of [
      REMOTE_COMMANDS.open,
      REMOTE_COMMANDS.close,
      PASSWORD_COMMAND,
      SET_PIN_COMMAND,
      DELETE_PIN_COMMAND,
    ]) {
      expect(systemCommandOf(command)?.code, command.cmdCode).toBe(command.cmdCode);
    }
    const name = paramCommandName({ kind: 'value', deviceId: 'd1', name: 'heartbeatSeconds', value: '300' });
    expect(systemCommandOf({ cmdCode: PARAM_COMMAND.cmdCode, name })).toEqual({
      code: 'setParam',
      param: 'heartbeatSeconds',
    });
  });
});
