import {
  api,
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type FieldIssue,
  type PermissionKey,
  ResultCode,
} from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { staff } from '../../src/modules/org/org.schema.ts';
import { ADMIN_NAME, ADMIN_PASSWORD, type CallResult, type TestApp, type TestStaff } from './app.ts';

/** Small factories and expectations shared by the organisation and parameter suites. */
export function orgHelpers(t: () => TestApp) {
  let adminToken: string | undefined;

  const admin = async () => {
    adminToken ??= await t().signIn(ADMIN_NAME, ADMIN_PASSWORD);
    return adminToken;
  };

  /** Calls with a query, or with a body, as the admin unless a token is given. */
  const get = async <E extends Endpoint>(
    endpoint: E,
    query: EndpointQuery<E> | Record<string, never> = {},
    token?: string,
  ) => t().call(endpoint, { query: query as EndpointQuery<E>, token: token ?? (await admin()) });
  const post = async <E extends Endpoint>(
    endpoint: E,
    body: EndpointBody<E>,
    token?: string,
    lang?: string,
  ) => t().call(endpoint, { body, token: token ?? (await admin()), ...(lang ? { lang } : {}) });
  /** Replaces a staff member's roles. */
  const assignRoles = async (staffId: string, roleIds: string[], token?: string) =>
    t().call(api.staff.assignRoleIds, { query: { staffId }, body: roleIds, token: token ?? (await admin()) });
  /** A body outside the contract (invalid on purpose), sent as JSON. */
  const postRaw = async <E extends Endpoint>(endpoint: E, payload: unknown, token?: string, lang?: string) =>
    t().call(endpoint, { payload, token: token ?? (await admin()), ...(lang ? { lang } : {}) });

  const createDepartment = async (name: string, parentId: string | null = null, idxNo = 0) => {
    const response = await post(api.department.save, {
      name,
      deptType: 'Electric',
      parentId,
      idxNo,
    });
    expectOk(response);
    return response.body.data.id;
  };

  const createRole = async (name: string, keys: readonly PermissionKey[] = []) => {
    const response = await post(api.role.save, { name, roleType: 'JobLeader' });
    expectOk(response);
    const id = response.body.data.id;
    if (keys.length > 0) {
      expectOk(
        await post(api.permission.saveGrants, { subjectType: 'Role', subjectId: id, keys: [...keys] }),
      );
    }
    return id;
  };

  /** A staff member (direct in the database) placed in a department. */
  const staffIn = async (deptId: string | null, permissions: readonly PermissionKey[] = []) => {
    const created: TestStaff = await t().createStaff({ permissions });
    await t().db.update(staff).set({ deptId }).where(eq(staff.id, created.id));
    return created;
  };

  const tokenOf = (user: TestStaff) => t().signIn(user.name, user.password);

  return { admin, get, post, postRaw, assignRoles, createDepartment, createRole, staffIn, tokenOf };
}

export function expectOk(response: CallResult<unknown>): void {
  expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: true, code: ResultCode.Ok });
  expect(response.status).toBe(200);
}

/** A business failure: HTTP 200, success false, the code. */
export function expectCode(response: CallResult<unknown>, code: number): void {
  expect(
    { status: response.status, success: response.body.success, code: response.body.code },
    JSON.stringify(response.body),
  ).toEqual({ status: code < 600 ? code : 200, success: false, code });
}

/** The field list of a refused call (its `data`, whatever the endpoint answers on success). */
export function fieldIssues(response: CallResult<unknown>): FieldIssue[] {
  return response.body.data as FieldIssue[];
}

/** A 400 whose field list names exactly these paths. */
export function expectInvalid(response: CallResult<unknown>, paths: readonly string[]): void {
  expectCode(response, ResultCode.InvalidInput);
  const issues = response.body.data as { path: string }[];
  expect([...new Set(issues.map((i) => i.path))].sort()).toEqual([...paths].sort());
}

/** A change refused for handing out or taking away keys the caller does not hold: HTTP 403, code 1025. */
export function expectGrantRefused(response: CallResult<unknown>, keys?: readonly string[]): void {
  expect(
    { status: response.status, success: response.body.success, code: response.body.code },
    JSON.stringify(response.body),
  ).toEqual({ status: 403, success: false, code: ResultCode.GrantBeyondOwn });
  if (keys) expect((response.body.data as { keys: string[] }).keys).toEqual([...keys].sort());
}
