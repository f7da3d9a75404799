import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../../http/endpoints.ts';
import type { SessionUser } from '../../../http/request-context.ts';
import type { Services } from '../../../services.ts';
import { sendXlsx } from './xlsx-file.ts';

/** Excel templates, imports and the ledger export; files are sent as they are, not in the envelope. */
export function transferRoutes(services: Services): RouteBinding[] {
  const { transfer } = services.devices;
  /** An import uses up the caller's upload (kind import) it names, whatever its outcome. */
  const withWorkbook = <T>(user: SessionUser, fileId: string, run: (bytes: Buffer) => Promise<T>) =>
    services.files.useUp({ id: fileId, ownerId: user.staffId, kind: 'import' }, run);
  return [
    bind(api.unit.importTemplate, async ({ req, reply }) =>
      sendXlsx(reply, await transfer.template('unit', req.lang)),
    ),
    bind(api.device.importTemplate, async ({ query, req, reply }) =>
      sendXlsx(reply, await transfer.template(query.kind, req.lang)),
    ),
    bind(api.key.importTemplate, async ({ req, reply }) =>
      sendXlsx(reply, await transfer.template('key', req.lang)),
    ),
    bind(api.unit.import, (ctx) =>
      withWorkbook(signedIn(ctx), ctx.body.fileId, (file) => transfer.importUnits(file, ctx.req.lang)),
    ),
    bind(api.device.import, (ctx) =>
      withWorkbook(signedIn(ctx), ctx.body.fileId, (file) =>
        transfer.importDevices(ctx.body.kind, file, ctx.req.lang),
      ),
    ),
    bind(api.key.import, (ctx) =>
      withWorkbook(signedIn(ctx), ctx.body.fileId, (file) => transfer.importKeys(file, ctx.req.lang)),
    ),
    bind(api.device.export, async ({ query, req, reply }) =>
      sendXlsx(reply, await transfer.exportLedger(query, req.lang)),
    ),
  ];
}
