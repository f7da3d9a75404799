import type { PinRow } from '@uiot/contracts';
import { Alert, Descriptions } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';
import { sortedWeekdays } from './pin-window.ts';
import './pins.css';

/**
 * A code the server answered once: a PIN just generated, or an erase code. Kept only while its dialog is
 * open; the page drops it in the dialog's `afterClose`.
 */
export type IssuedCode =
  /** `later`: a durable PIN's code, drawn when its lock woke, shown from its row. */
  | { kind: 'pin'; code: string; pin: PinRow; later?: boolean }
  /** A durable PIN just generated: its code is drawn when its lock wakes, shown then from the list. */
  | { kind: 'awaiting'; pin: PinRow }
  | { kind: 'erase'; code: string; validUntil: string; disabled: number; deviceName: string };

/** A code shown once: what it is for, the code large and copyable, its facts, and the warning. */
function OnceCodeView({
  intro,
  code,
  testId,
  facts,
  note,
}: {
  intro: string;
  /** Null: no code yet (a durable PIN before its lock wakes); the note says when it comes. */
  code: string | null;
  testId: string;
  facts: { key: string; label: string; children: ReactNode }[];
  note: string;
}) {
  return (
    <>
      <p>{intro}</p>
      {code !== null && <SecretText secret={code} testId={testId} large />}
      <Descriptions size="small" column={1} bordered className="uiot-pins__issued" items={facts} />
      <Alert type={code === null ? 'info' : 'warning'} showIcon title={note} data-testid={`${testId}-note`} />
    </>
  );
}

/**
 * What the PIN is, for whom and when, its code large and copyable, and the warning that it is shown only now;
 * without a code (a durable PIN just generated), when its code comes and where it is shown.
 */
export function IssuedPinView({ code, pin }: { code: string | null; pin: PinRow }) {
  const { t } = useTranslation('pins');
  const user = pin.userName ?? pin.userId;
  const start = formatDateTime(pin.startTime);
  const end = formatDateTime(pin.endTime);
  const validity =
    pin.type === 'weekly'
      ? t('issued.weeklyWindow', {
          start,
          end,
          weekdays: sortedWeekdays(pin.weekdays)
            .map((day) => t(`weekday.${day}`))
            .join(t('separator')),
        })
      : t('issued.window', { start, end });
  return (
    <OnceCodeView
      intro={code === null ? t('issued.awaitingIntro') : t('issued.intro')}
      code={code}
      testId="pinCode"
      facts={[
        { key: 'device', label: t('column.deviceName'), children: pin.deviceName },
        { key: 'user', label: t('column.userName'), children: user },
        { key: 'type', label: t('column.type'), children: t(`type.${pin.type}`) },
        {
          key: 'window',
          label: t('issued.valid'),
          children: <span data-testid="pinCode-window">{validity}</span>,
        },
      ]}
      note={code === null ? t('issued.awaitingNote', { user }) : t('issued.note', { user })}
    />
  );
}

/**
 * The erase code large and copyable, the lock, until when the lock takes it, how many PINs it disabled, and
 * the warning.
 */
export function EraseCodeView({
  code,
  validUntil,
  disabled,
  deviceName,
}: {
  code: string;
  validUntil: string;
  disabled: number;
  deviceName: string;
}) {
  const { t } = useTranslation('pins');
  return (
    <OnceCodeView
      intro={t('erase.intro')}
      code={code}
      testId="eraseCode"
      facts={[
        { key: 'device', label: t('column.deviceName'), children: deviceName },
        {
          key: 'validUntil',
          label: t('erase.validUntil'),
          children: <span data-testid="eraseCode-validUntil">{formatDateTime(validUntil)}</span>,
        },
        {
          key: 'disabled',
          label: t('erase.disabled'),
          children: <span data-testid="eraseCode-disabled">{disabled}</span>,
        },
      ]}
      note={t('erase.note')}
    />
  );
}

/**
 * The code shown once (spec §3 PIN: the console never shows it again). A click beside the dialog does not
 * close it, since a lost code means generating another. Test ids: `pinCode` (content), `pinCode-password`,
 * `pinCode-copy`, `pinCode-note`, `pinCode-close` (a durable PIN awaiting its lock: the same, without a code); `eraseCode`, `eraseCode-password`, `-copy`, `-validUntil`, `-disabled`,
 * `-close` for an erase code.
 */
export function PinCodeDialog({
  issued,
  open,
  onClose,
  afterClose,
}: {
  issued: IssuedCode;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation('pins');
  const testId = issued.kind === 'erase' ? 'eraseCode' : 'pinCode';
  const title = {
    pin: issued.kind === 'pin' && issued.later ? t('issued.laterTitle') : t('issued.title'),
    awaiting: t('issued.awaitingTitle'),
    erase: t('erase.resultTitle'),
  }[issued.kind];
  return (
    <SecretDialog
      title={title}
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      maskClosable={false}
      testId={testId}
      closeTestId={`${testId}-close`}
    >
      {issued.kind !== 'erase' ? (
        <IssuedPinView code={issued.kind === 'pin' ? issued.code : null} pin={issued.pin} />
      ) : (
        <EraseCodeView
          code={issued.code}
          validUntil={issued.validUntil}
          disabled={issued.disabled}
          deviceName={issued.deviceName}
        />
      )}
    </SecretDialog>
  );
}
