import { z } from 'zod';

/**
 * What the signed-in user may do with a device of a row, decided by the server for each row (the console
 * reads it and never re-derives the rule; STYLE.md, outline's policies).
 */
export const deviceAbilities = z.object({
  /**
   * Operate the physical device: send it commands, register or unregister it, change its credential, reset
   * its IMEI, replace it. The server allows it with the DevTypeOp grant of the device's type (spec §6).
   */
  operate: z.boolean(),
});
export type DeviceAbilities = z.infer<typeof deviceAbilities>;
