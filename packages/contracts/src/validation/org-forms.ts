import { z } from 'zod';
import { homePageTypeOf } from '../feature-flags.ts';

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
  deptType: z.enum(DEPT_TYPES, { error: 'v.required' }),
  description: optionalText(255),
  idxNo: z.coerce
    .number({ error: 'v.integer' })
    .int({ error: 'v.integer' })
    .min(0, { error: 'v.integer' })
    // A whole number the database's integer column holds.
    .max(2_000_000_000, { error: 'v.integer' })
    .default(0),
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
  age: z.coerce
    .number({ error: 'v.integer' })
    .int({ error: 'v.integer' })
    .min(0, { error: 'v.integer' })
    .max(150, { error: 'v.integer' })
    .nullable()
    .optional(),
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
  staffType: z.union([z.literal(0), z.literal(1)], { error: 'v.required' }),
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
      return Number.isFinite(Number(val)) ? null : 'v.number';
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

/** Values a parameter of the system reads by name must take (spec §8: HomePageType misconfigured). */
function namedValueProblem(name: string, val: string | null | undefined): string | null {
  if (val === null || val === undefined || val === '') return null;
  if (name.trim() === 'HomePageType' && homePageTypeOf(val) === null) return 'v.homePageType';
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
    valType: z.enum(PARAM_VAL_TYPES, { error: 'v.required' }),
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
      const problem =
        paramValueProblem(form.valType, form[field]) ?? namedValueProblem(form.name, form[field]);
      if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
    }
  });
export type ParamForm = z.infer<typeof paramForm>;

export const VERIFICATION_CODE_LENGTH = 6;

/** Self-registration (spec §2 login screen, §4 Registration, §5). */
export const registrationForm = z
  .object({
    staffType: z.union([z.literal(0), z.literal(1)], { error: 'v.required' }),
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
  if (!start || !end) return options.required ? { path: 'startTime', message: 'v.timeRangeRequired' } : null;
  const s = Date.parse(start);
  const e = Date.parse(end);
  if (Number.isNaN(s)) return { path: 'startTime', message: 'v.invalid' };
  if (Number.isNaN(e)) return { path: 'endTime', message: 'v.invalid' };
  if (e <= s) return { path: 'endTime', message: 'v.endAfterStart' };
  if (options.maxOneYear && e - s > MAX_RANGE_MS) return { path: 'endTime', message: 'v.rangeWithinYear' };
  return null;
}
