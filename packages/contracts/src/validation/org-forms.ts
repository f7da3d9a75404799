import { z } from 'zod';
import { homePageTypeOf } from '../feature-flags.ts';
import { coordinateProblem } from './device-formats.ts';
import { timeProblem, wholeNumberUpTo } from './formats.ts';

/** Card id: 12 hexadecimal characters, stored upper-cased (spec §5, §9). */
export const RFID_PATTERN = /^[0-9A-Fa-f]{12}$/;
/** Telephone: digits with an optional country prefix, spaces or dashes. */
export const TELEPHONE_PATTERN = /^\+?[0-9][0-9 -]{5,19}$/;

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'v.tooLong' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const nameText = (max = 64) =>
  z.string({ error: 'v.required' }).trim().min(1, { error: 'v.required' }).max(max, { error: 'v.tooLong' });

export const DEPT_TYPES = ['Electric', 'Builder'] as const;
export type DeptType = (typeof DEPT_TYPES)[number];

export const departmentForm = z.object({
  name: nameText(64),
  code: optionalText(32),
  deptType: z.enum(DEPT_TYPES),
  description: optionalText(255),
  // A whole number the database's integer column holds.
  idxNo: wholeNumberUpTo(2_000_000_000).default(0),
  parentId: z.string().max(64).nullable().optional(),
});
export type DepartmentForm = z.infer<typeof departmentForm>;

export const ROLE_TYPES = ['JobLeader', 'JobSignature', 'JobApprover', 'JobGuarder'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

export const roleForm = z.object({
  name: nameText(64),
  roleType: z.enum(ROLE_TYPES).nullable().optional(),
  description: optionalText(255),
  deptId: z.string().max(64).nullable().optional(),
});
export type RoleForm = z.infer<typeof roleForm>;

/** Staff type (spec §2): 1 MTR staff (Electric), 0 contractor (Builder). */
export const STAFF_TYPES = [1, 0] as const;
export const STAFF_STATUSES = ['activated', 'disabled', 'pending', 'rejected'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const staffProfileFields = {
  name: nameText(64),
  deptId: z.string().max(64).nullable().optional(),
  age: wholeNumberUpTo(150).nullable().optional(),
  sex: z
    .union([z.literal(0), z.literal(1)])
    .nullable()
    .optional(),
  email: z
    .string()
    .trim()
    .max(128, { error: 'v.tooLong' })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'v.email' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  telNo: z
    .string()
    .trim()
    .refine((v) => v === '' || TELEPHONE_PATTERN.test(v), { error: 'v.telephone' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  address: optionalText(255),
  notes: optionalText(500),
  faxNo: optionalText(32),
  rfidCode: z
    .string()
    .trim()
    .refine((v) => v === '' || RFID_PATTERN.test(v), { error: 'v.rfid' })
    .transform((v) => (v === '' ? null : v.toUpperCase()))
    .nullable()
    .optional(),
  staffType: z.union([z.literal(0), z.literal(1)]),
};

/** New staff member; the password is checked against the policy on the server (StrongPassword). */
export const staffCreateForm = z.object({
  ...staffProfileFields,
  password: z
    .string({ error: 'v.password' })
    .min(1, { error: 'v.password' })
    .max(128, { error: 'v.tooLong' }),
  roleIds: z.array(z.string().max(64)).max(100).optional(),
});
export type StaffCreateForm = z.infer<typeof staffCreateForm>;

export const staffUpdateForm = z.object({
  id: z.string().min(1).max(64),
  ...staffProfileFields,
  roleIds: z.array(z.string().max(64)).max(100).optional(),
});
export type StaffUpdateForm = z.infer<typeof staffUpdateForm>;

export const PARAM_VAL_TYPES = ['string', 'boolean', 'number', 'json'] as const;
export type ParamValType = (typeof PARAM_VAL_TYPES)[number];

/** A parameter value must fit its type; JSON values must parse (spec §5). */
export function paramValueProblem(valType: ParamValType, val: string | null | undefined): string | null {
  if (val === null || val === undefined || val === '') return null;
  switch (valType) {
    case 'boolean':
      return val === 'true' || val === 'false' ? null : 'v.invalid';
    case 'number':
      // Number(' ') is 0: a blank text is no number.
      return val.trim() !== '' && Number.isFinite(Number(val)) ? null : 'v.number';
    case 'json':
      try {
        JSON.parse(val);
        return null;
      } catch {
        return 'v.json';
      }
    default:
      return null;
  }
}

/**
 * The numeric parameters the system reads by name (docs/parameters.md): whole numbers within these bounds,
 * so that no value stops what reads them (a huge DoorOpenTimeout once stopped telemetry ingest).
 */
export const PARAM_WHOLE_RANGES: Readonly<Record<string, { min: number; max: number; fallback: number }>> = {
  /** Minutes a door may stand open before the run state timeOutNotClosed; 0 turns the check off; a day. */
  DoorOpenTimeout: { min: 0, max: 1440, fallback: 30 },
  /** Search radius of the map markers in metres: 1 m to 50 km. */
  MarkerSearchDistance: { min: 1, max: 50_000, fallback: 500 },
};

/** A stored value of a parameter of `PARAM_WHOLE_RANGES` as its readers use it, and what was changed. */
export interface WholeParamReading {
  value: number;
  /** `clamped`: the stored number was outside the range; `default`: it was no number (or empty). */
  adjusted: 'clamped' | 'default' | null;
}

/**
 * What a reader of a numeric parameter uses, whatever is stored (a value saved before the range was checked,
 * or written in the database): a number outside the range is read as the nearer bound, anything else that
 * is not a number as the default. A fraction within the range is read as it is.
 */
export function wholeParamValue(name: string, stored: string | null | undefined): WholeParamReading {
  const range = PARAM_WHOLE_RANGES[name];
  if (!range || !Object.hasOwn(PARAM_WHOLE_RANGES, name)) throw new Error(`${name} has no range`);
  const text = stored?.trim() ?? '';
  const number = text === '' ? Number.NaN : Number(text);
  if (Number.isNaN(number)) return { value: range.fallback, adjusted: 'default' };
  const value = Math.min(range.max, Math.max(range.min, number));
  return { value, adjusted: value === number ? null : 'clamped' };
}

/** The parameter holding the map's centre as "longitude,latitude". */
export const LNG_LAT_PARAM = 'LngLat';

/** Whether a text is "longitude,latitude" within range (at most 7 decimals each). */
export function isLngLat(val: string): boolean {
  const parts = val.split(',').map((part) => part.trim());
  return (
    parts.length === 2 &&
    coordinateProblem(parts[0]!, 180) === null &&
    coordinateProblem(parts[1]!, 90) === null
  );
}

/** A problem of a value with the `{name}` parameters of its message. */
interface ValueProblem {
  message: string;
  params?: Record<string, number>;
}

/** Values a parameter of the system reads by name must take (spec §8: HomePageType misconfigured). */
function namedValueProblem(name: string, val: string | null | undefined): ValueProblem | null {
  if (val === null || val === undefined || val === '') return null;
  const trimmed = name.trim();
  if (trimmed === 'HomePageType' && homePageTypeOf(val) === null) return { message: 'v.homePageType' };
  if (trimmed === LNG_LAT_PARAM && !isLngLat(val)) return { message: 'v.lngLat' };
  const range = Object.hasOwn(PARAM_WHOLE_RANGES, trimmed) ? PARAM_WHOLE_RANGES[trimmed] : undefined;
  if (range) {
    const whole = /^\s*[-+]?\d{1,16}\s*$/.test(val) ? Number(val) : Number.NaN;
    if (!(whole >= range.min && whole <= range.max)) {
      return { message: 'v.wholeRange', params: { min: range.min, max: range.max } };
    }
  }
  return null;
}

export const paramForm = z
  .object({
    name: z
      .string({ error: 'v.required' })
      .trim()
      .min(1, { error: 'v.required' })
      .max(64, { error: 'v.tooLong' })
      .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, { error: 'v.invalid' }),
    valType: z.enum(PARAM_VAL_TYPES),
    val: z.string().max(10_000, { error: 'v.tooLong' }).nullable().optional(),
    cls: optionalText(64),
    defVal: z.string().max(10_000, { error: 'v.tooLong' }).nullable().optional(),
    desc: optionalText(255),
    editable: z.boolean().default(true),
    group: optionalText(64),
    /**
     * Readable by every signed-in user without param.read (params/getByName, getMap). Left out: not public
     * for a new parameter, unchanged for an existing one; fixed for the built-in parameters.
     */
    isPublic: z.boolean().optional(),
  })
  .superRefine((form, ctx) => {
    for (const field of ['val', 'defVal'] as const) {
      const typeProblem = paramValueProblem(form.valType, form[field]);
      const problem = typeProblem ? { message: typeProblem } : namedValueProblem(form.name, form[field]);
      if (problem) ctx.addIssue({ code: 'custom', path: [field], ...problem });
    }
  });
export type ParamForm = z.infer<typeof paramForm>;

export const VERIFICATION_CODE_LENGTH = 6;

/** Self-registration (spec §2 login screen, §4 Registration, §5). */
export const registrationForm = z
  .object({
    staffType: z.union([z.literal(0), z.literal(1)]),
    name: nameText(64),
    email: z
      .string({ error: 'v.required' })
      .trim()
      .min(1, { error: 'v.required' })
      .pipe(z.email({ error: 'v.email' })),
    verificationCode: z
      .string({ error: 'v.required' })
      .trim()
      .min(1, { error: 'v.required' })
      .max(VERIFICATION_CODE_LENGTH, { error: 'v.code6' }),
    password: z
      .string({ error: 'v.password' })
      .min(1, { error: 'v.password' })
      .max(128, { error: 'v.tooLong' }),
    confirmPassword: z.string({ error: 'v.confirmPassword' }).min(1, { error: 'v.confirmPassword' }).max(128),
  })
  .superRefine((form, ctx) => {
    if (form.confirmPassword && form.password !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'v.passwordMismatch' });
    }
  });
export type RegistrationForm = z.infer<typeof registrationForm>;

/** Longest export or search range of logs (spec §5). */
export const MAX_RANGE_MS = 366 * 24 * 3600 * 1000;

/** A time range whose end is later than its start and which spans at most one year when `maxOneYear`. */
export function timeRangeProblem(
  start: string | undefined,
  end: string | undefined,
  options: { required: boolean; maxOneYear: boolean },
): { path: 'startTime' | 'endTime'; message: string } | null {
  // Each bound given is a time within the years a request may carry, whether or not the other is given.
  const startProblem = start ? timeProblem(start) : null;
  if (startProblem) return { path: 'startTime', message: startProblem };
  const endProblem = end ? timeProblem(end) : null;
  if (endProblem) return { path: 'endTime', message: endProblem };
  if (!start || !end) return options.required ? { path: 'startTime', message: 'v.timeRangeRequired' } : null;
  const s = Date.parse(start);
  const e = Date.parse(end);
  if (e <= s) return { path: 'endTime', message: 'v.endAfterStart' };
  if (options.maxOneYear && e - s > MAX_RANGE_MS) return { path: 'endTime', message: 'v.rangeWithinYear' };
  return null;
}
