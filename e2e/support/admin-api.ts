// The API as the administrator, for the setting a browser test needs around what it is about (units,
// types, devices): signs in once and calls endpoints with the envelope checked.
import {
  ADMIN_STAFF_ID,
  API_PREFIX,
  api,
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResult,
} from '@uiot/contracts';
import { ADMIN_PASSWORD } from './console.ts';

export interface AdminApi {
  token: string;
  /** The API's address (without /api). */
  baseUrl: string;
  /** Calls an endpoint; answers `data`, throws with the message of a failed envelope. */
  call<E extends Endpoint>(
    endpoint: E,
    input?: { query?: EndpointQuery<E>; body?: EndpointBody<E> },
  ): Promise<EndpointResult<E>>;
}

export function adminApi(baseUrl: string): Promise<AdminApi> {
  return apiAs(baseUrl, ADMIN_STAFF_ID, ADMIN_PASSWORD);
}

/** The API as a staff member (an auditor passing a task, say), signed in by name and password. */
export async function apiAs(baseUrl: string, name: string, password: string): Promise<AdminApi> {
  const login = await fetch(`${baseUrl}${API_PREFIX}${api.auth.loginCheck.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, pwd: password }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  return {
    token,
    baseUrl,
    async call<E extends Endpoint>(
      endpoint: E,
      input: { query?: EndpointQuery<E>; body?: EndpointBody<E> } = {},
    ): Promise<EndpointResult<E>> {
      const query = input.query ? `?${new URLSearchParams(input.query as Record<string, string>)}` : '';
      const response = await fetch(`${baseUrl}${API_PREFIX}${endpoint.path}${query}`, {
        method: endpoint.method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
      });
      const envelope = (await response.json()) as {
        success: boolean;
        data: EndpointResult<E>;
        message: string;
      };
      if (!envelope.success) throw new Error(`${endpoint.path}: ${envelope.message}`);
      return envelope.data;
    },
  };
}

/**
 * Devices in a unit and a device type of their own (IoT, heartbeat 5 minutes), added in this order; answers
 * their ids. A second call in one suite names another unit and type.
 */
export async function ledgerDevices(
  admin: AdminApi,
  typeCode: string,
  devices: ReadonlyArray<{ name: string; code: string }>,
  names: { unit: string; type: string } = { unit: 'E2E 荃湾站', type: 'E2E 智能门锁' },
): Promise<string[]> {
  const unit = await admin.call(api.unit.save, { body: { name: names.unit, sortIndex: 0 } });
  const type = await admin.call(api.deviceType.save, {
    body: {
      name: names.type,
      code: typeCode,
      category: 'IoT',
      reportInterval: 3600,
      heartbeatInterval: 300,
      sortIndex: 0,
    },
  });
  const ids: string[] = [];
  for (const device of devices) {
    const saved = await admin.call(api.device.save, {
      body: {
        ...device,
        unitId: unit.id,
        typeId: type.id,
        category: 'IoT',
      },
    });
    ids.push(saved.id);
  }
  return ids;
}

/**
 * A staff member whose one role holds `keys`, past the forced change of the initial password: answers the
 * password to sign in with.
 */
export async function staffHolding(admin: AdminApi, name: string, keys: readonly string[]): Promise<string> {
  const role = await admin.call(api.role.save, { body: { name: `${name} role`, roleType: 'JobLeader' } });
  await admin.call(api.permission.saveGrants, {
    body: { subjectType: 'Role', subjectId: role.id, keys: [...keys] },
  });
  const initial = 'Staff-Init-2026';
  await admin.call(api.staff.saveStaffEx, {
    body: { name, staffType: 0, password: initial, roleIds: [role.id] },
  });
  const login = await fetch(`${admin.baseUrl}${API_PREFIX}${api.auth.loginCheck.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, pwd: initial }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const password = 'Staff-Own-2026';
  const changed = await fetch(`${admin.baseUrl}${API_PREFIX}${api.auth.changePwd.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ oldPwd: initial, newPwd: password, confirmPwd: password }),
  });
  if (!((await changed.json()) as { success: boolean }).success)
    throw new Error(`password of ${name} not changed`);
  return password;
}
