import {
  ADMIN_ROLE_ID,
  ADMIN_STAFF_ID,
  api,
  type EndpointBody,
  Permission,
  ResultCode,
  type StaffAbilities,
  type StaffAction,
  type StaffListRow,
  staffListRow,
} from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLog, opLog } from '../src/modules/admin/logs.schema.ts';
import { session } from '../src/modules/auth/auth.schema.ts';
import { device, lockKey } from '../src/modules/devices/devices.schema.ts';
import { permissionGrant, staff, staffRole } from '../src/modules/org/org.schema.ts';
import {
  ADMIN_NAME,
  ADMIN_PASSWORD,
  type CallResult,
  freshAddress,
  openTestApp,
  STAFF_PASSWORD,
  type TestApp,
  uniqueName,
  urlOf,
} from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { emptyWorkbook, JPEG, PNG, uploadFile, uploadParts } from './support/files.ts';
import {
  expectCode,
  expectGrantRefused,
  expectInvalid,
  expectOk,
  fieldIssues,
  orgHelpers,
} from './support/org.ts';

const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');
const STRONG = 'Tr0ub4dor&Zq';

type StaffForm = EndpointBody<typeof api.staff.saveStaffEx>;

describe.each(databases)('staff ($kind)', (kind) => {
  let t: TestApp;
  const { admin, get, post, assignRoles, createDepartment, createRole, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const form = (extra: Partial<StaffForm> = {}): StaffForm => ({
    name: uniqueName('Staff'),
    password: STRONG,
    staffType: 1,
    ...extra,
  });
  const create = async (
    extra: Partial<StaffForm> = {},
    endpoint: typeof api.staff.save | typeof api.staff.saveStaffEx = api.staff.save,
  ) => {
    const body = form(extra);
    const response = await post(endpoint, body);
    expectOk(response);
    return { id: response.body.data.id, name: body.name, password: body.password };
  };
  const row = async (id: string) => (await get(api.staff.getById, { id })).body.data;
  /** A signature uploaded by the admin (or the given user): its file id. */
  const signatureUpload = async (bytes: Buffer, token?: string) =>
    uploadFile(t, token ?? (await admin()), 'signature', bytes);
  /** The signature download: status, headers, bytes and, when the answer is the envelope, its code. */
  const signatureOf = async (id: string, token?: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: urlOf(api.staff.getSignatureById),
      query: { id },
      headers: { authorization: `Bearer ${token ?? (await admin())}` },
    });
    const isEnvelope = String(response.headers['content-type']).startsWith('application/json');
    return {
      status: response.statusCode,
      headers: response.headers,
      bytes: response.rawPayload,
      code: isEnvelope ? response.json<{ code: number }>().code : undefined,
    };
  };
  const sessionWorks = async (token: string) =>
    (await t.call(api.auth.getUserInfo, { token })).status === 200;
  const login = (name: string, pwd: string) =>
    t.call(api.auth.loginCheck, {
      body: { name, pwd },
      remoteAddress: freshAddress(),
    });

  describe('queries', () => {
    it('page staff rows with department and roles, never the password or the signature', async () => {
      const dept = await createDepartment(uniqueName('Rows'));
      const roleB = await createRole(uniqueName('b-role'));
      const roleA = await createRole(uniqueName('a-role'));
      const created = await create(
        {
          deptId: dept,
          roleIds: [roleB, roleA],
          email: 'x@example.com',
          signatureFileId: await signatureUpload(PNG),
        },
        api.staff.saveStaffEx,
      );
      const page = await get(api.staff.queryPage, { name: created.name });
      expectOk(page);
      expect(page.body.data.total).toBe(1);
      const [found] = page.body.data.rows;
      expect(Object.keys(found!).sort()).toEqual(Object.keys(staffListRow.shape).sort());
      expect(staffListRow.parse(found)).toEqual(found);
      expect(found).toMatchObject({
        id: created.id,
        deptId: dept,
        email: 'x@example.com',
        status: 'activated',
        hasSignature: true,
        staffType: 1,
      });
      const names = (await get(api.role.getAll)).body.data;
      const nameOf = (id: string) => names.find((r) => r.id === id)!.name;
      expect(found!.roleNames).toEqual([nameOf(roleA), nameOf(roleB)]);
      expect(found!.roleIds).toEqual([roleA, roleB]);
      expect(found!.deptName).toBe(
        (await get(api.department.getTree)).body.data.find((d) => d.id === dept)!.name,
      );
      expect(JSON.stringify(page.body)).not.toMatch(/argon2|base64|password/i);
      // getById answers the staff member alone; the list adds what the caller may do with it.
      const { abilities, ...member } = found!;
      expect(await row(created.id)).toEqual(member);
      expect(Object.values(abilities).every(Boolean)).toBe(true);
    });

    it('search by name, department, type and status, and sort by name, type, status or creation', async () => {
      const tag = uniqueName('srch');
      const dept = await createDepartment(uniqueName('Search'));
      const carol = await create({ name: `${tag}-carol`, staffType: 0, deptId: dept });
      const alice = await create({ name: `${tag}-alice`, staffType: 1 });
      const bob = await create({ name: `${tag}-bob`, staffType: 1, deptId: dept });
      expectOk(await get(api.staff.enable, { id: alice.id, enable: 'false' }));
      const names = async (query: Record<string, string>) => {
        const response = await get(api.staff.queryPage, { name: tag, ...query });
        expectOk(response);
        return response.body.data.rows.map((r) => r.name);
      };
      expect(await names({ sort: 'name' })).toEqual([`${tag}-alice`, `${tag}-bob`, `${tag}-carol`].sort());
      expect(await names({ sort: 'name', ascending: 'false' })).toEqual(
        [`${tag}-alice`, `${tag}-bob`, `${tag}-carol`].sort().reverse(),
      );
      expect(await names({ sort: 'createdAt', ascending: 'true' })).toEqual([
        carol.name,
        alice.name,
        bob.name,
      ]);
      expect((await names({ sort: 'staffType', ascending: 'true' }))[0]).toBe(carol.name);
      expect((await names({ sort: 'status', ascending: 'false' }))[0]).toBe(alice.name);
      expect(await names({ deptId: dept, sort: 'name' })).toEqual([bob.name, carol.name].sort());
      expect(await names({ staffType: '0' })).toEqual([carol.name]);
      expect(await names({ status: 'disabled' })).toEqual([alice.name]);
      expect(await names({ name: `${tag}-BOB` })).toEqual([bob.name]);
      expectInvalid(await get(api.staff.queryPage, { sort: 'password' }), ['sort']);

      const byName = await get(api.staff.queryPageByName, { name: tag, pageSize: '2', sort: 'name' });
      expect(byName.body.data.total).toBe(3);
      expect(byName.body.data.rows).toHaveLength(2);

      // A department includes the staff of the departments below it, and not those above.
      const team = await createDepartment(uniqueName('Team'), dept);
      const dave = await create({ name: `${tag}-dave`, staffType: 1, deptId: team });
      expect(await names({ deptId: dept, sort: 'name' })).toEqual([bob.name, carol.name, dave.name].sort());
      expect(await names({ deptId: team })).toEqual([dave.name]);
    });

    it('list activated staff only for selectors, overall and per department', async () => {
      const dept = await createDepartment(uniqueName('Select'));
      const active = await create({ deptId: dept });
      const disabled = await create({ deptId: dept });
      expectOk(await get(api.staff.enable, { id: disabled.id, enable: 'false' }));
      // The key and device forms choose staff (finding 10: not every signed-in user).
      const keyClerk = await t.createStaff({ permissions: [Permission.KeyRead] });
      const token = await tokenOf(keyClerk);

      const all = await get(api.staff.getAll, {}, token);
      expect(all.body.data).toContainEqual({ id: active.id, name: active.name });
      expect(all.body.data.map((s) => s.id)).not.toContain(disabled.id);
      const ofDept = await get(api.staff.queryByDeptId, { deptId: dept }, token);
      expect(ofDept.body.data).toEqual([{ id: active.id, name: active.name }]);
    });

    it('give role ids and the signature of one staff member; 1020 for an unknown one', async () => {
      const roleId = await createRole(uniqueName('r'));
      const bare = await create();
      const signed = await create(
        { roleIds: [roleId], signatureFileId: await signatureUpload(PNG) },
        api.staff.saveStaffEx,
      );
      expect((await get(api.staff.getRoleIds, { staffId: signed.id })).body.data).toEqual([roleId]);
      expect((await get(api.staff.getRoleIds, { staffId: bare.id })).body.data).toEqual([]);
      const signature = await signatureOf(signed.id);
      expect(signature.status).toBe(200);
      expect(signature.bytes).toEqual(PNG);
      expect(signature.headers['content-type']).toBe('image/png');
      expect(await signatureOf(bare.id)).toMatchObject({ status: 404, code: ResultCode.NotFound });
      for (const [url, query] of [
        [api.staff.getById, { id: 'nobody' }],
        [api.staff.getRoleIds, { staffId: 'nobody' }],
        [api.staff.getSignatureById, { id: 'nobody' }],
      ] as const) {
        expectCode(await get(url, query), ResultCode.UserNotFound);
      }
    });
  });

  describe('creating', () => {
    it('makes an activated account that must change its password at first sign-in', async () => {
      const created = await create();
      const stored = (await t.db.select().from(staff).where(eq(staff.id, created.id)))[0]!;
      expect(stored).toMatchObject({ status: 'activated', mustChangePassword: true });
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      const token = await t.signIn(created.name, created.password);
      expect((await t.call(api.auth.getUserInfo, { token })).body.data.isFirstLogin).toBe(true);
    });

    it('keeps names unique, ignoring case (1021)', async () => {
      const created = await create();
      const response = await post(
        api.staff.save,
        form({ name: created.name.toUpperCase() }),
        undefined,
        'en',
      );
      expectCode(response, ResultCode.NameTaken);
      expect(response.body.message).toBe(`The name "${created.name.toUpperCase()}" is already in use`);
      const other = await create();
      expectCode(
        await post(api.staff.update, { id: other.id, name: ` ${created.name} `, staffType: 1 }),
        ResultCode.NameTaken,
      );
      expectCode(
        await post(api.staff.update, { id: 'nobody', name: uniqueName(), staffType: 1 }),
        ResultCode.UserNotFound,
      );
    });

    it('refuses an unknown department or role with field errors', async () => {
      expectInvalid(await post(api.staff.save, form({ deptId: 'no-such-dept', roleIds: ['no-such-role'] })), [
        'deptId',
        'roleIds.0',
      ]);
    });

    describe('with StrongPassword on (the default), applies the strong policy', () => {
      const cases: [string, (name: string) => string, Record<'en' | 'zh-TW', string>][] = [
        ['too short', () => 'Xy7#k', { en: 'At least 8 characters', 'zh-TW': '密碼至少 8 位' }],
        [
          'two classes',
          () => 'xkqzmwprt7',
          {
            en: 'Use at least three of: upper case, lower case, digits, symbols',
            'zh-TW': '須包含大寫字母、小寫字母、數字、符號中的至少三類',
          },
        ],
        [
          'the name inside',
          (name) => `Q7#${name}`,
          { en: 'The password must not contain the user name', 'zh-TW': '密碼不能包含用戶名稱' },
        ],
        [
          'an abc run',
          () => 'Zyabc#97Q',
          {
            en: 'The password must not contain runs like 123, abc or ABC',
            'zh-TW': '密碼不能包含連續字元（如 123、abc、ABC）',
          },
        ],
        [
          'a 123 run',
          () => 'Zq#9123wX',
          {
            en: 'The password must not contain runs like 123, abc or ABC',
            'zh-TW': '密碼不能包含連續字元（如 123、abc、ABC）',
          },
        ],
        [
          'admin inside',
          () => 'Qz#7Admin9',
          {
            en: 'The password must not contain a default user name (such as admin or root)',
            'zh-TW': '密碼不能包含預設用戶名稱（如 admin、root）',
          },
        ],
        [
          'a common password',
          () => 'P@ssw0rd',
          { en: 'This password is too common, choose another', 'zh-TW': '密碼過於常見，請換一個' },
        ],
      ];

      it.each(cases)('refuses a password with %s, in en and zh-TW', async (_case, password, messages) => {
        const name = uniqueName('pw');
        for (const lang of ['en', 'zh-TW'] as const) {
          const response = await post(
            api.staff.save,
            form({ name, password: password(name) }),
            undefined,
            lang,
          );
          expectInvalid(response, ['password']);
          const texts = fieldIssues(response).map((i) => i.message);
          expect(texts).toContain(messages[lang]);
        }
        expect(await t.db.select().from(staff).where(eq(staff.name, name))).toEqual([]);
      });

      it('accepts a strong password', async () => {
        await create({ password: 'Mv8#qLx2Tz' });
      });
    });

    it('with StrongPassword off, applies the simple rule (8+, upper, lower, digit) only', async () => {
      await t.setParam('StrongPassword', 'false');
      try {
        const weak = await post(api.staff.save, form({ password: 'alllowercase1' }), undefined, 'en');
        expectInvalid(weak, ['password']);
        expect(weak.body.data).toEqual([
          { path: 'password', message: 'At least 8 characters with upper case, lower case and digits' },
        ]);
        // Refused by the strong policy (a 123 run), fine for the simple rule.
        await create({ password: 'Abc12345' });
      } finally {
        await t.setParam('StrongPassword', 'true');
      }
      expectInvalid(await post(api.staff.save, form({ password: 'Abc12345' })), ['password']);
    });

    it('saveOrUpdate without an id also needs staff.create (403); with an id it updates', async () => {
      const updater = await t.createStaff({ permissions: [Permission.StaffUpdate] });
      const creator = await t.createStaff({ permissions: [Permission.StaffUpdate, Permission.StaffCreate] });
      const body = form();
      expectCode(await post(api.staff.saveOrUpdate, body, await tokenOf(updater)), ResultCode.Forbidden);
      expect(await t.db.select().from(staff).where(eq(staff.name, body.name))).toEqual([]);

      const created = await post(api.staff.saveOrUpdate, body, await tokenOf(creator));
      expectOk(created);
      const id = created.body.data.id;
      const updated = await post(
        api.staff.saveOrUpdate,
        { id, name: body.name, staffType: 0, notes: 'moved' },
        await tokenOf(updater),
      );
      expect(updated.body.data).toEqual({ id });
      expect(await row(id)).toMatchObject({ staffType: 0, notes: 'moved' });
    });
  });

  describe('roles and signature', () => {
    it('saveStaffEx and updateStaffEx set roles and an uploaded PNG or JPEG signature; null removes it', async () => {
      const r1 = await createRole(uniqueName('r1'));
      const r2 = await createRole(uniqueName('r2'));
      const created = await create(
        { roleIds: [r1], signatureFileId: await signatureUpload(PNG) },
        api.staff.saveStaffEx,
      );
      expect(await row(created.id)).toMatchObject({ roleIds: [r1], hasSignature: true });

      // Uploaded as "signature.png", declared image/png: the stored type is read from the content.
      const jpeg = await uploadParts(t, await admin(), 'signature', [
        { name: 'signature.png', bytes: JPEG, type: 'image/png' },
      ]);
      expect(jpeg.body.data).toMatchObject({ contentType: 'image/jpeg', name: 'signature.png.jpg' });
      expectOk(
        await post(api.staff.updateStaffEx, {
          id: created.id,
          name: created.name,
          staffType: 1,
          roleIds: [r2, r1],
          signatureFileId: jpeg.body.data.id,
        }),
      );
      const replaced = await signatureOf(created.id);
      expect(replaced.bytes).toEqual(JPEG);
      expect(replaced.headers['content-type']).toBe('image/jpeg');
      expect([...(await row(created.id)).roleIds].sort()).toEqual([r1, r2].sort());

      // Without a signature field the signature stays; null removes it.
      expectOk(await post(api.staff.updateStaffEx, { id: created.id, name: created.name, staffType: 1 }));
      expect((await row(created.id)).hasSignature).toBe(true);
      expectOk(
        await post(api.staff.updateStaffEx, {
          id: created.id,
          name: created.name,
          staffType: 1,
          signatureFileId: null,
        }),
      );
      expect((await row(created.id)).hasSignature).toBe(false);
      expect(await signatureOf(created.id)).toMatchObject({ status: 404, code: ResultCode.NotFound });
    });

    it('refuses, by content, a signature that is not a PNG or JPEG, or larger than 256 KiB', async () => {
      const token = await admin();
      const big = Buffer.concat([PNG, Buffer.alloc(256 * 1024 + 1 - PNG.length)]);
      for (const [bytes, status, code] of [
        [GIF, 415, ResultCode.FileTypeRefused],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 415, ResultCode.FileTypeRefused],
        [Buffer.from('really text, named signature.png'), 415, ResultCode.FileTypeRefused],
        [big, 413, ResultCode.FileTooLarge],
      ] as const) {
        const answer = await uploadParts(t, token, 'signature', [
          { name: 'signature.png', bytes, type: 'image/png' },
        ]);
        expect(answer.status).toBe(status);
        expect(answer.body.code).toBe(code);
      }
      const exact = Buffer.concat([PNG, Buffer.alloc(256 * 1024 - PNG.length)]);
      expect((await uploadParts(t, token, 'signature', [{ name: 's.png', bytes: exact }])).status).toBe(200);
    });

    it("attaches only the caller's own unused upload of the kind signature (1173), changing nothing else", async () => {
      const created = await create({ signatureFileId: await signatureUpload(PNG) }, api.staff.saveStaffEx);
      const other = await t.createStaff({ permissions: [Permission.StaffUpdate] });
      const theirs = await signatureUpload(JPEG, await t.signIn(other.name, other.password));
      const workbook = await uploadFile(t, await admin(), 'import', await emptyWorkbook());
      const used = await signatureUpload(JPEG);
      await create({ signatureFileId: used }, api.staff.saveStaffEx);
      for (const signatureFileId of [theirs, workbook, used, crypto.randomUUID()]) {
        expectCode(
          await post(api.staff.updateStaffEx, {
            id: created.id,
            name: created.name,
            staffType: 1,
            notes: 'changed',
            signatureFileId,
          }),
          ResultCode.FileUnavailable,
        );
        const body = form({ signatureFileId });
        expectCode(await post(api.staff.saveStaffEx, body), ResultCode.FileUnavailable);
        expect(
          await t.db
            .select()
            .from(staff)
            .where(eq(staff.name, body.name as string)),
        ).toEqual([]);
      }
      expect((await signatureOf(created.id)).bytes).toEqual(PNG);
      expect((await row(created.id)).notes).toBeNull();
      expectInvalid(
        await post(api.staff.updateStaffEx, {
          id: created.id,
          name: created.name,
          staffType: 1,
          signatureFileId: 'not-an-id',
        }),
        ['signatureFileId'],
      );
    });

    it('downloads a signature only with staff.read, as an attachment no browser renders in the console', async () => {
      const created = await create({ signatureFileId: await signatureUpload(PNG) }, api.staff.saveStaffEx);
      const signature = await signatureOf(created.id);
      expect(signature.headers).toMatchObject({
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="signature.png"; filename*=UTF-8''signature.png`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      const stranger = await t.createStaff({ permissions: [Permission.StaffUpdate, Permission.StaffCreate] });
      const refused = await signatureOf(created.id, await t.signIn(stranger.name, stranger.password));
      expect(refused).toMatchObject({ status: 403, code: ResultCode.Forbidden });
      expect(refused.bytes.includes(PNG)).toBe(false);
      const reader = await t.createStaff({ permissions: [Permission.StaffRead] });
      const read = await signatureOf(created.id, await t.signIn(reader.name, reader.password));
      expect(read.bytes).toEqual(PNG);
    });

    it('assignRoleIds replaces the roles; unknown roles are refused (400)', async () => {
      const r1 = await createRole(uniqueName('r1'));
      const r2 = await createRole(uniqueName('r2'));
      const created = await create({ roleIds: [r1] }, api.staff.saveStaffEx);
      expectOk(await assignRoles(created.id, [r2]));
      expect((await get(api.staff.getRoleIds, { staffId: created.id })).body.data).toEqual([r2]);
      expectInvalid(await assignRoles(created.id, [r1, 'no-such-role']), ['1']);
      expect((await get(api.staff.getRoleIds, { staffId: created.id })).body.data).toEqual([r2]);
      expectOk(await assignRoles(created.id, []));
      expect((await get(api.staff.getRoleIds, { staffId: created.id })).body.data).toEqual([]);
      expectCode(await assignRoles('nobody', []), ResultCode.UserNotFound);
    });

    it('changing roles through save or update needs staff.assignRole; the admin role needs an admin', async () => {
      const roleId = await createRole(uniqueName('r'));
      const creator = await t.createStaff({ permissions: [Permission.StaffCreate, Permission.StaffUpdate] });
      const creatorToken = await tokenOf(creator);
      expectCode(await post(api.staff.save, form({ roleIds: [roleId] }), creatorToken), ResultCode.Forbidden);
      const created = await post(api.staff.save, form({ roleIds: [] }), creatorToken);
      expectOk(created);
      const id = created.body.data.id;
      const name = (await row(id)).name;
      expectCode(
        await post(api.staff.update, { id, name, staffType: 1, roleIds: [roleId] }, creatorToken),
        ResultCode.Forbidden,
      );
      // Sending the roles it already has is no change.
      expectOk(await post(api.staff.update, { id, name, staffType: 1, roleIds: [] }, creatorToken));

      const assigner = await t.createStaff({ permissions: [Permission.StaffAssignRole] });
      const assignerToken = await tokenOf(assigner);
      expectOk(await assignRoles(id, [roleId], assignerToken));
      expectGrantRefused(await assignRoles(id, [ADMIN_ROLE_ID], assignerToken), ['*']);
      expectGrantRefused(await assignRoles(assigner.id, [ADMIN_ROLE_ID], assignerToken), ['*']);
      expectOk(await assignRoles(id, [ADMIN_ROLE_ID]));
      expect((await get(api.staff.queryStaffResTree, { staffId: id })).body.data).toMatchObject({
        all: true,
      });
      expectGrantRefused(await assignRoles(id, [], assignerToken), ['*']);
    });
  });

  describe('account actions', () => {
    it('disabling ends every session and refuses sign-in; enabling lets the user back in', async () => {
      const user = await t.createStaff();
      const first = await tokenOf(user);
      const second = await tokenOf(user);
      expect(await sessionWorks(first)).toBe(true);

      expectOk(await get(api.staff.enable, { id: user.id, enable: 'false' }));
      for (const token of [first, second]) {
        const response = await t.call(api.auth.getUserInfo, { token });
        expect(response.status).toBe(401);
      }
      const open = await t.db.select().from(session).where(eq(session.staffId, user.id));
      expect(open.every((s) => s.revokedAt !== null)).toBe(true);
      expectCode(await login(user.name, user.password), ResultCode.AccountDisabled);
      expect((await row(user.id)).status).toBe('disabled');

      expectOk(await get(api.staff.enable, { id: user.id, enable: 'true' }));
      expect(await sessionWorks(await tokenOf(user))).toBe(true);
      expect(await sessionWorks(first)).toBe(false);
      expectCode(await get(api.staff.enable, { id: 'nobody', enable: 'false' }), ResultCode.UserNotFound);
    });

    it('resetPwd gives a one-time password once, ends the sessions and forces a change', async () => {
      const user = await t.createStaff({ mustChangePassword: false });
      const old = await tokenOf(user);
      const response = await get(api.staff.resetPwd, { id: user.id });
      expectOk(response);
      const { password } = response.body.data;
      expect(password).not.toBe(STAFF_PASSWORD);
      expect(password.length).toBeGreaterThanOrEqual(12);

      expect((await t.call(api.auth.getUserInfo, { token: old })).status).toBe(401);
      expectCode(await login(user.name, user.password), ResultCode.LoginFailed);
      const signedIn = await login(user.name, password);
      expectOk(signedIn);
      const token = signedIn.body.data.token;
      expect((await t.call(api.auth.getUserInfo, { token })).body.data.isFirstLogin).toBe(true);
      const [stored] = await t.db.select().from(staff).where(eq(staff.id, user.id));
      expect(stored!.mustChangePassword).toBe(true);
      expect(stored!.passwordHash).not.toContain(password);

      // The one-time password is never written to the operation log.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logged = await t.db.select().from(opLog);
      expect(JSON.stringify(logged)).not.toContain(password);
      expectCode(await get(api.staff.resetPwd, { id: 'nobody' }), ResultCode.UserNotFound);
    });

    it('deletes a staff member with its roles, own grants and sessions; the login log stays', async () => {
      const roleId = await createRole(uniqueName('r'));
      const user = await t.createStaff();
      expectOk(await assignRoles(user.id, [roleId]));
      expectOk(
        await post(api.permission.saveGrants, {
          subjectType: 'Staff',
          subjectId: user.id,
          keys: [Permission.RoleRead],
        }),
      );
      const token = await tokenOf(user);

      expectOk(await get(api.staff.del, { id: user.id }));
      expectCode(await get(api.staff.getById, { id: user.id }), ResultCode.UserNotFound);
      expect((await t.call(api.auth.getUserInfo, { token })).status).toBe(401);
      expect(await t.db.select().from(staffRole).where(eq(staffRole.staffId, user.id))).toEqual([]);
      expect(await t.db.select().from(permissionGrant).where(eq(permissionGrant.subjectId, user.id))).toEqual(
        [],
      );
      expect(await t.db.select().from(session).where(eq(session.staffId, user.id))).toEqual([]);
      expect(await t.db.select().from(loginLog).where(eq(loginLog.userId, user.id))).toHaveLength(1);
      expectCode(await get(api.staff.del, { id: user.id }), ResultCode.UserNotFound);
    });

    it('keeps a staff member who holds keys (1026) and lets go of the devices one answered for', async () => {
      const holder = await t.createStaff();
      const [key] = await t.db
        .insert(lockKey)
        .values({ name: uniqueName('Key'), code: uniqueName('K'), staffId: holder.id })
        .returning({ id: lockKey.id });
      const deviceId = await insertDeviceRow(t.db, {
        unitId: await insertUnitRow(t.db),
        typeId: await insertDeviceTypeRow(t.db),
      });
      await t.db.update(device).set({ staffId: holder.id }).where(eq(device.id, deviceId));

      expectCode(await get(api.staff.del, { id: holder.id }), ResultCode.StaffHoldsKeys);
      expect(await t.db.select().from(staff).where(eq(staff.id, holder.id))).toHaveLength(1);
      expect((await t.db.select().from(lockKey).where(eq(lockKey.id, key!.id)))[0]?.staffId).toBe(holder.id);

      // The key taken back, the staff member goes; the device answers to nobody rather than to a stale id.
      await t.db.update(lockKey).set({ staffId: null }).where(eq(lockKey.id, key!.id));
      expectOk(await get(api.staff.del, { id: holder.id }));
      expect((await t.db.select().from(device).where(eq(device.id, deviceId)))[0]?.staffId).toBeNull();
    });

    it('never deletes oneself (1022) nor the built-in admin (1023)', async () => {
      const deleter = await t.createStaff({ permissions: [Permission.StaffDelete] });
      const token = await tokenOf(deleter);
      expectCode(await get(api.staff.del, { id: deleter.id }, token), ResultCode.CannotDeleteSelf);
      expectCode(await get(api.staff.del, { id: ADMIN_STAFF_ID }, token), ResultCode.BuiltInAccount);
      expectCode(await get(api.staff.del, { id: ADMIN_STAFF_ID }), ResultCode.CannotDeleteSelf);
      expect(await sessionWorks(token)).toBe(true);
    });

    it('never updates, disables, resets or re-roles the built-in admin (1023)', async () => {
      for (const response of [
        await post(api.staff.update, { id: ADMIN_STAFF_ID, name: ADMIN_NAME, staffType: 1, notes: 'x' }),
        await post(api.staff.updateStaffEx, {
          id: ADMIN_STAFF_ID,
          name: ADMIN_NAME,
          staffType: 1,
          signatureFileId: null,
        }),
        await post(api.staff.saveOrUpdate, { id: ADMIN_STAFF_ID, name: ADMIN_NAME, staffType: 1 }),
        await get(api.staff.enable, { id: ADMIN_STAFF_ID, enable: 'false' }),
        await get(api.staff.resetPwd, { id: ADMIN_STAFF_ID }),
        await assignRoles(ADMIN_STAFF_ID, []),
      ]) {
        expectCode(response, ResultCode.BuiltInAccount);
      }
      expect(await sessionWorks(await admin())).toBe(true);
      expect(await t.signIn(ADMIN_NAME, ADMIN_PASSWORD)).toBeTruthy();
      expect((await get(api.staff.getRoleIds, { staffId: ADMIN_STAFF_ID })).body.data).toEqual([
        ADMIN_ROLE_ID,
      ]);
    });

    it('offers on each row of the staff list exactly what the server then does (abilities)', async () => {
      const actor = await t.createStaff({
        permissions: [
          Permission.StaffRead,
          Permission.StaffUpdate,
          Permission.StaffEnable,
          Permission.StaffResetPassword,
          Permission.StaffAssignRole,
          Permission.StaffDelete,
          Permission.RoleGrant,
        ],
      });
      const other = await t.createStaff();
      const token = await tokenOf(actor);
      const listed = async (name: string) => {
        const page = await get(api.staff.queryPage, { name }, token);
        expectOk(page);
        const found = page.body.data.rows.find((r) => r.name === name);
        if (!found) throw new Error(`${name} is not listed`);
        return found;
      };
      // The calls of each ability, in an order that leaves the row in place until its delete.
      const calls: Record<StaffAction, (r: StaffListRow) => Promise<CallResult<unknown>>> = {
        update: (r) =>
          post(api.staff.update, { id: r.id, name: r.name, staffType: r.staffType as 0 | 1 }, token),
        assignRoles: (r) => assignRoles(r.id, r.roleIds, token),
        grant: async (r) => {
          const subject = { subjectType: 'Staff' as const, subjectId: r.id };
          const held = await get(api.permission.getGrants, subject, token);
          return post(api.permission.saveGrants, { ...subject, keys: held.body.data.keys }, token);
        },
        resetPwd: (r) => get(api.staff.resetPwd, { id: r.id }, token),
        disable: (r) => get(api.staff.enable, { id: r.id, enable: 'false' }, token),
        enable: (r) => get(api.staff.enable, { id: r.id, enable: 'true' }, token),
        delete: (r) => get(api.staff.del, { id: r.id }, token),
      };
      const offered: Record<string, StaffAbilities> = {};
      for (const name of [actor.name, ADMIN_NAME, other.name]) {
        const listedRow = await listed(name);
        offered[name] = listedRow.abilities;
        for (const action of Object.keys(calls) as StaffAction[]) {
          const response = await calls[action](listedRow);
          expect(response.body.success, `${action} of ${name}`).toBe(listedRow.abilities[action]);
        }
      }
      expect(Object.values(offered[actor.name] as StaffAbilities).filter(Boolean)).toHaveLength(4);
      expect(Object.values(offered[ADMIN_NAME] as StaffAbilities).some(Boolean)).toBe(false);
      expect(Object.values(offered[other.name] as StaffAbilities).every(Boolean)).toBe(true);
      expect(await sessionWorks(token)).toBe(true);
    });

    it('updates the profile fields it is given and leaves the password alone', async () => {
      const dept = await createDepartment(uniqueName('Upd'));
      const created = await create();
      expectOk(
        await post(api.staff.update, {
          id: created.id,
          name: created.name,
          staffType: 0,
          deptId: dept,
          age: 41,
          sex: 1,
          telNo: '+852 2345 6789',
          rfidCode: 'abcdef012345',
        }),
      );
      expect(await row(created.id)).toMatchObject({
        staffType: 0,
        deptId: dept,
        age: 41,
        sex: 1,
        telNo: '+852 2345 6789',
        rfidCode: 'ABCDEF012345',
      });
      expect(await t.signIn(created.name, created.password)).toBeTruthy();
      expectInvalid(
        await post(api.staff.update, {
          id: created.id,
          name: created.name,
          staffType: 0,
          deptId: 'no-such-dept',
        }),
        ['deptId'],
      );
    });
  });
});
