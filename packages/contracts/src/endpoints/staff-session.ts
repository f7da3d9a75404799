import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { email, optionalMobile, requiredText } from '../validation/formats.ts';
import { changePasswordRequest } from '../validation/password.ts';

export const loginForm = z.object({
  name: requiredText('v.username', 64),
  pwd: z.string({ error: 'v.password' }).min(1, { error: 'v.password' }).max(128, { error: 'v.tooLong' }),
});
export type LoginForm = z.infer<typeof loginForm>;

export const loginResult = z.object({
  userId: z.string(),
  userName: z.string(),
  token: z.string(),
  /** Idle timeout of the session, in seconds. */
  timeout: z.number().int(),
});

export const loginCheck = defineEndpoint({
  method: 'POST',
  path: '/staff/loginCheck',
  access: 'public',
  module: 'auth',
  summary: 'Sign in',
  body: loginForm,
  response: loginResult,
  secretFields: ['pwd'],
});

export const logout = defineEndpoint({
  method: 'GET',
  path: '/staff/logout',
  access: 'signedIn',
  allowedBeforePasswordChange: true,
  module: 'auth',
  summary: 'Sign out',
  response: z.null(),
});

export const menuRight = z.object({
  /** Names of the menus (catalogue entries) the user may open. */
  menus: z.array(z.string()),
  /** Permission keys (menus and buttons) the user holds. */
  permissions: z.array(z.string()),
});
export type MenuRight = z.infer<typeof menuRight>;

export const queryMenuRight = defineEndpoint({
  method: 'GET',
  path: '/staff/queryMenuRight',
  access: 'signedIn',
  module: 'auth',
  summary: "Menus and button keys of a user (another user's need staff.read)",
  query: z.object({ id: z.string().max(64, { error: 'v.tooLong' }).optional() }),
  response: menuRight,
});

export const isFirstLogin = defineEndpoint({
  method: 'GET',
  path: '/staff/isFirstLogin',
  access: 'signedIn',
  module: 'auth',
  summary: 'Whether the signed-in user must still change the initial password',
  query: z.object({ staffId: z.string().max(64, { error: 'v.tooLong' }).optional() }),
  response: z.boolean(),
});

export const changePwd = defineEndpoint({
  method: 'POST',
  path: '/staff/changePwd',
  access: 'signedIn',
  allowedBeforePasswordChange: true,
  module: 'auth',
  summary: 'Change own password',
  body: changePasswordRequest,
  response: z.null(),
  secretFields: ['oldPwd', 'newPwd', 'confirmPwd'],
});

export const userInfo = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  telNo: z.string().nullable(),
  deptName: z.string().nullable(),
  roles: z.array(z.string()),
  menus: z.array(z.string()),
  permissions: z.array(z.string()),
  isFirstLogin: z.boolean(),
  /** Whether the forced first-login password change applies (parameter ChangePwdByFirstLogin). */
  mustChangePassword: z.boolean(),
  isBuiltInAdmin: z.boolean(),
  stationId: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const getUserInfo = defineEndpoint({
  method: 'GET',
  path: '/staff/getUserInfo',
  access: 'signedIn',
  allowedBeforePasswordChange: true,
  module: 'auth',
  summary: 'The signed-in user, its roles and permitted menus',
  response: userInfo,
});

export const myInfoForm = z.object({
  telNo: optionalMobile,
  email,
});
export type MyInfoForm = z.infer<typeof myInfoForm>;

export const updateMyInfo = defineEndpoint({
  method: 'POST',
  path: '/staff/updateMyInfo',
  access: 'signedIn',
  module: 'auth',
  summary: 'Change own telephone and email',
  body: myInfoForm,
  response: z.null(),
});
