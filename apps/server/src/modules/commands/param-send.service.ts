import {
  type DeviceCommandRow,
  type DeviceParamForm,
  paramCommandName,
  paramCommandParams,
  ResultCode,
} from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import type { DeviceOperator, DeviceService } from '../devices/index.ts';
import { notOperable } from '../devices/index.ts';
import type { CommandService } from './command.service.ts';
import { toCommandRow } from './command-record.service.ts';

/**
 * The `setParam` command of the device monitor's parameter send-down (spec §5 "param config"). A parameter
 * matters while the operator is at the console: it is sent again every retransmit interval up to 3 more
 * times while nobody confirms it, and the lock must not apply it after 10 minutes (a stale value set later
 * would surprise whoever changed it since).
 */
export const PARAM_COMMAND = {
  cmdCode: 'setParam',
  expireSeconds: 10 * 60,
  maxRetransmit: 3,
} as const;

/**
 * Parameter send-down: a `setParam` command to one registered device, issued by the signed-in staff, who
 * must hold the DevTypeOp grant of the device's type.
 */
export class ParamSendService {
  constructor(
    private readonly ledger: Pick<DeviceService, 'get'>,
    private readonly commands: Pick<CommandService, 'issue'>,
  ) {}

  /** Issues the command and answers it as the records show it, after its first send. */
  async send(
    form: DeviceParamForm,
    staff: { id: string; name: string },
    operator: DeviceOperator,
  ): Promise<DeviceCommandRow> {
    const device = await this.ledger.get(form.deviceId, operator);
    if (!device.abilities.operate) throw notOperable(device.typeName ?? device.typeId);
    if (!device.regist) throw new AppError(ResultCode.DeviceNotRegistered);
    const command = await this.commands.issue({
      deviceId: device.id,
      cmdCode: PARAM_COMMAND.cmdCode,
      name: paramCommandName(form),
      params: paramCommandParams(form),
      expireSeconds: PARAM_COMMAND.expireSeconds,
      maxRetransmit: PARAM_COMMAND.maxRetransmit,
      staff,
    });
    return toCommandRow({ command, deviceName: device.name, deviceCode: device.code });
  }
}
