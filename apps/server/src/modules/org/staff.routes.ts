import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import { sendStoredFile } from '../../http/file-reply.ts';
import type { Services } from '../../services.ts';

export function staffRoutes({ org }: Services): RouteBinding[] {
  const { staff, grants } = org;
  return [
    bind(api.staff.getAll, () => staff.options()),
    bind(api.staff.queryByDeptId, ({ query }) => staff.options(query.deptId)),
    bind(api.staff.getById, ({ query }) => staff.get(query.id)),
    bind(api.staff.getRoleIds, ({ query }) => staff.roleIds(query.staffId)),
    bind(api.staff.getSignatureById, async ({ query, reply }) =>
      sendStoredFile(reply, await staff.signature(query.id)),
    ),
    bind(api.staff.queryPage, (ctx) => staff.query(signedIn(ctx), ctx.query)),
    bind(api.staff.queryPageByName, (ctx) => staff.query(signedIn(ctx), ctx.query)),
    bind(api.staff.queryStaffResTree, ({ query }) => grants.effectiveOf(query.staffId)),
    bind(api.staff.assignRoleIds, async (ctx) => {
      await staff.assignRoles(signedIn(ctx), ctx.query.staffId, ctx.body);
      return null;
    }),
    bind(api.staff.save, (ctx) => staff.create(signedIn(ctx), ctx.body)),
    bind(api.staff.saveStaffEx, (ctx) => staff.create(signedIn(ctx), ctx.body)),
    bind(api.staff.saveOrUpdate, (ctx) => staff.saveOrUpdate(signedIn(ctx), ctx.body)),
    bind(api.staff.update, async (ctx) => {
      await staff.update(signedIn(ctx), ctx.body);
      return null;
    }),
    bind(api.staff.updateStaffEx, async (ctx) => {
      await staff.update(signedIn(ctx), ctx.body);
      return null;
    }),
    bind(api.staff.enable, async (ctx) => {
      await staff.enable(signedIn(ctx), ctx.query.id, ctx.query.enable);
      return null;
    }),
    bind(api.staff.resetPwd, (ctx) => staff.resetPassword(signedIn(ctx), ctx.query.id)),
    bind(api.staff.del, async (ctx) => {
      await staff.remove(signedIn(ctx), ctx.query.id);
      return null;
    }),
  ];
}
