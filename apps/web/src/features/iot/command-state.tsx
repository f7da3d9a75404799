import { type CommandState, systemCommandOf } from '@uiot/contracts';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** How a state reads at a glance: ended well, ended badly, still under way. */
const STATE_COLOURS: Record<CommandState, string> = {
  Waitting: 'processing',
  NB_Pending: 'processing',
  NB_Send: 'processing',
  NB_Delivered: 'processing',
  NB_UnKnow: 'default',
  Success: 'success',
  NB_Successful: 'success',
  Failure: 'error',
  NB_Failed: 'error',
  NB_Expired: 'warning',
  NB_Timeout: 'warning',
  NB_Canceled: 'default',
};

/** A command state (spec §4) as the command records name it. */
export const commandStateLabel = (t: TFunction, state: CommandState): string =>
  t(`iot:command.state.${state}`);

/**
 * A command's name as the records show it: the commands the server makes itself (remote operations, PINs,
 * the lock replacement) in the reader's language, a device type's own as its configuration names them.
 */
export const commandNameOf = (t: TFunction, command: { cmdCode: string; name: string }): string => {
  const system = systemCommandOf(command);
  return system ? t(`iot:command.system.${system.code}`, { param: system.param ?? '' }) : command.name;
};

/** A command's state as a coloured tag; `data-state` carries the state itself for browser tests. */
export function CommandStateTag({ state, testId }: { state: CommandState; testId: string }) {
  const { t } = useTranslation('iot');
  return (
    <Tag color={STATE_COLOURS[state]} data-testid={testId} data-state={state}>
      {commandStateLabel(t, state)}
    </Tag>
  );
}
