import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { damageLevelForm, POWER_LEVEL_STATES, powerLevelForm } from '../validation/level-forms.ts';

const id = z.string().min(1).max(64);

/** Power (battery) level (spec §3): its battery range in %, start ≤ battery < end (docs/alarms.md). */
export const powerLevelRow = z.object({
  id: z.string(),
  level: z.number().int(),
  startValue: z.number(),
  endValue: z.number(),
  availableDays: z.number().int(),
  state: z.enum(POWER_LEVEL_STATES),
  updatedAt: z.string(),
});
export type PowerLevelRow = z.infer<typeof powerLevelRow>;

/** Damage level (spec §3): its range of the damage value, start ≤ value < end (docs/alarms.md). */
export const damageLevelRow = z.object({
  id: z.string(),
  level: z.number().int(),
  description: z.string().nullable(),
  startValue: z.number(),
  endValue: z.number(),
  updatedAt: z.string(),
});
export type DamageLevelRow = z.infer<typeof damageLevelRow>;

export const queryPowerLevelPage = defineEndpoint({
  method: 'GET',
  path: '/powerLevel/queryPage',
  access: Permission.PowerLevelRead,
  module: 'levels',
  summary: 'Power levels, paged (by level unless sorted), searchable by the run state they stand for',
  query: pageQuery.extend({ state: z.enum(POWER_LEVEL_STATES).optional() }),
  response: pageResult(powerLevelRow),
});

export const getAllPowerLevels = defineEndpoint({
  method: 'GET',
  path: '/powerLevel/getAll',
  access: Permission.PowerLevelRead,
  module: 'levels',
  summary: 'Every power level, lowest range first',
  response: z.array(powerLevelRow),
});

export const savePowerLevel = defineEndpoint({
  method: 'POST',
  path: '/powerLevel/save',
  access: Permission.PowerLevelCreate,
  module: 'levels',
  summary: 'Create a power level; its number and range must be free',
  body: powerLevelForm,
  response: z.object({ id: z.string() }),
});

export const updatePowerLevel = defineEndpoint({
  method: 'POST',
  path: '/powerLevel/update',
  access: Permission.PowerLevelUpdate,
  module: 'levels',
  summary: 'Update a power level; its number and range must not be another level’s',
  body: powerLevelForm.safeExtend({ id }),
  response: z.null(),
});

export const deletePowerLevel = defineEndpoint({
  method: 'GET',
  path: '/powerLevel/del',
  access: Permission.PowerLevelDelete,
  module: 'levels',
  summary: 'Delete a power level',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/**
 * The battery bands of the runtime monitor (low below `lowBelow` %, high from `highFrom` %), from the power
 * levels; the fixed 20/60 % while no power level is defined (`fromLevels` false).
 */
export const batteryBandScale = z.object({
  lowBelow: z.number(),
  highFrom: z.number(),
  fromLevels: z.boolean(),
});
export type BatteryBandScale = z.infer<typeof batteryBandScale>;

export const getBatteryBands = defineEndpoint({
  method: 'GET',
  path: '/powerLevel/batteryBands',
  access: Permission.MonitorRead,
  module: 'levels',
  summary: 'Battery bands of the runtime monitor, from the power levels',
  response: batteryBandScale,
});

export const queryDamageLevelPage = defineEndpoint({
  method: 'GET',
  path: '/damageLevel/queryPage',
  access: Permission.DamageLevelRead,
  module: 'levels',
  summary: 'Damage levels, paged (by level unless sorted)',
  query: pageQuery,
  response: pageResult(damageLevelRow),
});

export const getAllDamageLevels = defineEndpoint({
  method: 'GET',
  path: '/damageLevel/getAll',
  access: Permission.DamageLevelRead,
  module: 'levels',
  summary: 'Every damage level, lowest range first',
  response: z.array(damageLevelRow),
});

export const saveDamageLevel = defineEndpoint({
  method: 'POST',
  path: '/damageLevel/save',
  access: Permission.DamageLevelCreate,
  module: 'levels',
  summary: 'Create a damage level; its number and range must be free',
  body: damageLevelForm,
  response: z.object({ id: z.string() }),
});

export const updateDamageLevel = defineEndpoint({
  method: 'POST',
  path: '/damageLevel/update',
  access: Permission.DamageLevelUpdate,
  module: 'levels',
  summary: 'Update a damage level; its number and range must not be another level’s',
  body: damageLevelForm.safeExtend({ id }),
  response: z.null(),
});

export const deleteDamageLevel = defineEndpoint({
  method: 'GET',
  path: '/damageLevel/del',
  access: Permission.DamageLevelDelete,
  module: 'levels',
  summary: 'Delete a damage level',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
