import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** The device ledger: devices, attached devices, lock codes and correction values. */
export function ledgerRoutes(services: Services): RouteBinding[] {
  const { ledger, lockCodes, adjustValues } = services.devices;
  const done = () => null;
  return [
    bind(api.device.queryPage, (ctx) => ledger.query(ctx.query, signedIn(ctx))),
    bind(api.device.getById, (ctx) => ledger.get(ctx.query.id, signedIn(ctx))),
    bind(api.device.save, ({ body }) => ledger.create(body)),
    // A change of type moves the device between DevTypeOp grants: the service asks for both.
    bind(api.device.update, (ctx) => ledger.update(ctx.body, signedIn(ctx)).then(done)),
    bind(api.device.del, ({ query }) => ledger.remove(query.id).then(done)),
    bind(api.device.batchSave, ({ body }) => ledger.batchCreate(body)),
    // Operations of the physical device: the service checks the DevTypeOp grant of its type.
    bind(api.device.regist, (ctx) => ledger.register(ctx.query.id, signedIn(ctx))),
    bind(api.device.resetSecret, (ctx) => ledger.resetSecret(ctx.query.id, signedIn(ctx))),
    bind(api.device.resetPinSecret, (ctx) => ledger.resetPinSecret(ctx.query.id, signedIn(ctx))),
    bind(api.device.cancelRegist, (ctx) => ledger.unregister(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.device.resetImei, (ctx) => ledger.resetImei(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.device.queryAttachments, ({ query }) => ledger.attachments(query.mainDeviceId)),
    bind(api.device.saveAttachment, ({ body }) => ledger.createAttachment(body)),
    bind(api.device.updateAttachment, ({ body }) => ledger.updateAttachment(body).then(done)),
    bind(api.device.delAttachment, ({ query }) => ledger.removeAttachment(query.id).then(done)),

    bind(api.lockCode.queryByDevice, ({ query }) => lockCodes.ofDevice(query.deviceId)),
    bind(api.lockCode.save, ({ body }) => lockCodes.create(body)),
    bind(api.lockCode.update, ({ body }) => lockCodes.update(body).then(done)),
    bind(api.lockCode.del, ({ query }) => lockCodes.remove(query.id).then(done)),

    bind(api.adjustValue.queryByDevice, ({ query }) => adjustValues.ofDevice(query.deviceId)),
    bind(api.adjustValue.save, ({ body }) => adjustValues.create(body)),
    bind(api.adjustValue.update, ({ body }) => adjustValues.update(body).then(done)),
    bind(api.adjustValue.del, ({ query }) => adjustValues.remove(query.id).then(done)),
  ];
}
