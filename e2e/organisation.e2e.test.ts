// The organisation pages (spec §2 /sys, §3 Department, Role, Staff, §5, §6): the administrator creates a
// department, a role granted exactly one page (Parameters) and one of its buttons (edit), and a staff member
// of that department with that role; the staff member signs in (changing the initial password first) and
// sees exactly that page and that button, and the organisation pages stay closed to them. A delegate who may
// grant is offered only the keys it holds.
import { api, type Endpoint, validationMessages } from '@uiot/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import zhOrg from '../apps/web/src/locales/zh-CN/org.json' with { type: 'json' };
import { adminApi } from './support/admin-api.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import {
  apiResponse,
  chooseOption,
  fieldError,
  pathOf,
  screenshot,
  shown,
  signIn,
  storedToken,
  submitLogin,
  TEXTS,
  tableRow,
  toast,
  useConsoleSuite,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const v = (key: keyof typeof validationMessages) => validationMessages[key]['zh-CN'];

const DEPARTMENT = 'E2E 车务部';
const ROLE = 'E2E 参数编辑';
const STAFF = { name: 'e2e.tester', password: 'Kx9#mPq2vL', changed: 'Ym7$nRt4wQ' };

const { app, browser } = useConsoleSuite();

/** The table row that holds `text`. */
/** Submits a dialog and resolves with the success flag of the call it makes. */
async function submit(page: Page, dialog: string, endpoint: Endpoint): Promise<boolean> {
  const response = apiResponse(page, endpoint);
  await page.getByTestId(`${dialog}-submit`).click();
  return ((await (await response).json()) as { success: boolean }).success;
}

describe('organisation', () => {
  it('a staff member sees exactly the menu and the button their role was granted', async () => {
    const { page } = await browser.open(app.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);

    // A department.
    await page.goto('/sys/department');
    await page.getByTestId('departments-page').waitFor();
    await page.getByTestId('departments-create').click();
    await page.getByTestId('departments-dialog').waitFor();
    await page.getByTestId('department-name').fill(DEPARTMENT);
    await page.getByTestId('department-code').fill('E2E-01');
    expect(await submit(page, 'departments-dialog', api.department.save)).toBe(true);
    await toast(page, zh.common.outcome.create.success).waitFor();
    await tableRow(page, 'departments-table', DEPARTMENT).waitFor();
    expect(await shown(tableRow(page, 'departments-table', DEPARTMENT))).toContain(zhOrg.deptType.Electric);

    // A role of that department, granted the Parameters page and its edit button only.
    await page.goto('/sys/role');
    await page.getByTestId('roles-page').waitFor();
    // The built-in admin role holds everything: nothing to edit, delete or grant.
    const adminRole = tableRow(page, 'roles-table', zhOrg.role.builtIn);
    await adminRole.waitFor();
    expect(await adminRole.locator('[data-testid^="roles-row-"]').count()).toBe(0);

    await page.getByTestId('roles-create').click();
    await page.getByTestId('roles-dialog').waitFor();
    await page.getByTestId('role-name').fill(ROLE);
    await chooseOption(page, 'role-roleType', zhOrg.roleType.JobLeader);
    await chooseOption(page, 'role-deptId', DEPARTMENT);
    expect(await submit(page, 'roles-dialog', api.role.save)).toBe(true);
    const roleRow = tableRow(page, 'roles-table', ROLE);
    await roleRow.waitFor();
    expect(await shown(roleRow)).toContain(DEPARTMENT);

    await roleRow.getByTestId('roles-row-grant').click();
    const grants = page.getByTestId('grant-dialog');
    await grants.getByTestId('grant-tree').waitFor();
    // The Web group (the menus grouped as in the sidebar, buttons under their page) and the App group (what
    // the client apps do) have entries; no device type exists yet.
    for (const type of ['Web', 'App']) {
      expect(await grants.getByTestId(`grant-node-type:${type}`).count()).toBe(1);
    }
    for (const type of ['Sys', 'DevTypeOp']) {
      expect(await grants.getByTestId(`grant-node-type:${type}`).count()).toBe(0);
    }
    expect(await shown(grants.getByTestId('grant-node-param.read'))).toBe(zh.menu.params);
    await grants.getByTestId('grant-node-param.read').click();
    await grants.getByTestId('grant-node-param.update').click();
    // Checking is by key: the page's other buttons stay unchecked.
    expect(await grants.getByTestId('grant-node-param.read').getAttribute('data-checked')).toBe('true');
    expect(await grants.getByTestId('grant-node-param.create').getAttribute('data-checked')).toBe('false');
    await screenshot(page, 'organisation-role-grants-zh-CN');
    const saveGrants = page.waitForRequest(
      (request) => new URL(request.url()).pathname === pathOf(api.permission.saveGrants),
    );
    expect(await submit(page, 'grant-dialog', api.permission.saveGrants)).toBe(true);
    expect((await saveGrants).postDataJSON()).toMatchObject({
      subjectType: 'Role',
      keys: ['param.read', 'param.update'],
    });
    await grants.waitFor({ state: 'hidden' });

    // A staff member of that department with that role; the password policy is checked while typing.
    await page.goto('/sys/staff');
    await page.getByTestId('staff-page').waitFor();
    await page.getByTestId('staff-create').click();
    const dialog = page.getByTestId('staff-dialog');
    await dialog.waitFor();
    expect(await shown(dialog)).toContain(zhOrg.staff.nameStaffId);
    await dialog.getByText(zhOrg.staffType['0'], { exact: true }).click();
    await expect.poll(() => shown(dialog)).toContain(zhOrg.staff.nameHkid);
    await dialog.getByText(zhOrg.staffType['1'], { exact: true }).click();

    await page.getByTestId('staff-name').fill(STAFF.name);
    await page.getByTestId('staff-password').fill('abc12');
    await expect
      .poll(() => fieldError(page, 'staff-password').allInnerTexts())
      .toEqual(expect.arrayContaining([v('v.pwTooShort'), v('v.pwFewClasses'), v('v.pwSequence')]));
    await page.getByTestId('staff-password').fill(STAFF.password);
    await expect.poll(() => fieldError(page, 'staff-password').count()).toBe(0);
    await chooseOption(page, 'staff-deptId', DEPARTMENT);
    await chooseOption(page, 'staff-roleIds', ROLE);
    await page.keyboard.press('Escape');
    await page.getByTestId('staff-rfidCode').fill('0a1b2c3d4e5f');
    await page.getByTestId('staff-email').click();
    await expect.poll(() => page.getByTestId('staff-rfidCode').inputValue()).toBe('0A1B2C3D4E5F');
    expect(await submit(page, 'staff-dialog', api.staff.saveStaffEx)).toBe(true);
    const staffRow = tableRow(page, 'staff-table', STAFF.name);
    await staffRow.waitFor();
    expect(await shown(staffRow)).toContain(DEPARTMENT);
    expect(await shown(staffRow)).toContain(ROLE);
    // The administrator cannot delete themself.
    const adminRow = tableRow(page, 'staff-table', 'admin');
    expect(await adminRow.getByTestId('staff-row-delete').count()).toBe(0);
    expect(await staffRow.getByTestId('staff-row-delete').count()).toBe(1);

    // The staff member signs in, changes the initial password, and lands on the home page.
    const other = await browser.open(app.url);
    const user = other.page;
    await user.goto('/login');
    await submitLogin(user, STAFF.name, STAFF.password);
    await user.getByTestId('change-password').waitFor();
    await user.getByTestId('change-password-old').fill(STAFF.password);
    await user.getByTestId('change-password-new').fill(STAFF.changed);
    await user.getByTestId('change-password-confirm').fill(STAFF.changed);
    await user.getByTestId('change-password-submit').click();
    await user.getByTestId('sidebar').waitFor();

    // Exactly one menu: System › Parameters.
    const token = await storedToken(user);
    const info = (await (
      await fetch(`${app.apiUrl}${pathOf(api.auth.getUserInfo)}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { menus: string[]; permissions: string[] } };
    expect(info.data.permissions).toEqual(['param.read', 'param.update']);
    expect(info.data.menus).toEqual(['Home', 'Profile', 'Sys', 'Params']);

    await user.goto('/sys/params');
    await user.getByTestId('params-page').waitFor();
    const sidebar = user.getByTestId('sidebar-menu');
    await sidebar.getByTestId('sidebar-item-Params').waitFor();
    expect(await shown(sidebar.getByTestId('sidebar-item-Sys'))).toBe(zh.menu.sys);
    expect(await shown(sidebar.getByTestId('sidebar-item-Params'))).toBe(zh.menu.params);
    for (const name of ['Department', 'Role', 'Staff']) {
      expect(await sidebar.getByTestId(`sidebar-item-${name}`).count()).toBe(0);
    }

    // Exactly one button: edit; no add, no delete.
    await expect.poll(() => user.getByTestId('params-row-edit').count()).toBeGreaterThan(0);
    expect(await user.getByTestId('params-create').count()).toBe(0);
    expect(await user.getByTestId('params-row-delete').count()).toBe(0);
    await screenshot(user, 'organisation-granted-staff-params-zh-CN');

    // The organisation pages are not theirs.
    await user.goto('/sys/staff');
    await user.locator('[data-testid="page-404"], [data-testid="page-401"]').waitFor();
    expect(await user.getByTestId('staff-page').count()).toBe(0);
  });

  it('finding 8: the permission dialog offers a delegate only the keys it holds, and keeps the others', async () => {
    const admin = await adminApi(app.apiUrl);
    const roleWith = async (name: string, keys: string[]) => {
      const { id } = await admin.call(api.role.save, { body: { name, roleType: 'JobLeader' } });
      await admin.call(api.permission.saveGrants, { body: { subjectType: 'Role', subjectId: id, keys } });
      return id;
    };
    const delegateRole = await roleWith('E2E 授权员', ['role.read', 'role.grant', 'param.read']);
    const target = await roleWith('E2E 目标角色', ['param.read', 'oplog.read']);
    const delegate = { name: 'e2e.delegate', password: 'Qz8#wLm3Tv', changed: 'Hp5$kDx9Rn' };
    await admin.call(api.staff.save, { body: { ...delegate, staffType: 1, roleIds: [delegateRole] } });
    const { page } = await browser.open(app.url);
    await page.goto('/login');
    await submitLogin(page, delegate.name, delegate.password);
    await page.getByTestId('change-password').waitFor();
    await page.getByTestId('change-password-old').fill(delegate.password);
    await page.getByTestId('change-password-new').fill(delegate.changed);
    await page.getByTestId('change-password-confirm').fill(delegate.changed);
    await page.getByTestId('change-password-submit').click();
    await page.getByTestId('sidebar').waitFor();

    await page.goto('/sys/role');
    await tableRow(page, 'roles-table', 'E2E 目标角色').getByTestId('roles-row-grant').click();
    const grants = page.getByTestId('grant-dialog');
    await grants.getByTestId('grant-tree').waitFor();
    // Its own keys, and nothing else: not the staff pages, not the operation log the target holds.
    for (const key of ['param.read', 'role.read', 'role.grant']) {
      expect(await grants.getByTestId(`grant-node-${key}`).count(), key).toBe(1);
    }
    for (const key of ['staff.read', 'oplog.read', 'param.update', 'role.create']) {
      expect(await grants.getByTestId(`grant-node-${key}`).count(), key).toBe(0);
    }
    expect(await grants.getByTestId('grant-node-param.read').getAttribute('data-checked')).toBe('true');
    expect(await shown(grants.getByTestId('grant-kept-beyond'))).toBe(
      zhOrg.grant.keptBeyond.replace('{{count}}', '1'),
    );
    await screenshot(page, 'organisation-delegate-grants-zh-CN');

    await grants.getByTestId('grant-node-role.read').click();
    expect(await submit(page, 'grant-dialog', api.permission.saveGrants)).toBe(true);
    await grants.waitFor({ state: 'hidden' });
    const saved = await admin.call(api.permission.getGrants, {
      query: { subjectType: 'Role', subjectId: target },
    });
    expect(saved.keys).toEqual(['oplog.read', 'param.read', 'role.read']);
  });
});
