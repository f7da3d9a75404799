import { ClearOutlined, PlusOutlined } from '@ant-design/icons';
import { api, PIN_TYPES, PIN_USE_STATES, type PinRow } from '@uiot/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CrudPage,
  type RowAction,
  type SearchField,
  type ToolbarAction,
  useLivePages,
} from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { call } from '../../lib/request/index.ts';
import { DeviceSelect } from '../devices/device-select.tsx';
import { EraseCodeAskDialog } from './erase-code-dialog.tsx';
import { type IssuedCode, PinCodeDialog } from './pin-code-dialog.tsx';
import { pinColumns } from './pin-columns.tsx';
import { type PinDevice, PinGenerateDialog } from './pin-generate-dialog.tsx';
import { pinPageAfterOpenings } from './pin-live.ts';
import './pins.css';

export interface PinListProps {
  /** Test-id prefix of the kit (`<id>-table`, `<id>-toolbar-generate`, ...). */
  id: string;
  title: string;
  /** One lock's PINs (the monitor's dynamic-passwords tab): no lock column nor search, PINs made for it. */
  device?: PinDevice | undefined;
}

/**
 * Offline PINs (spec §3 PIN, docs/offline-pins.md), newest first: masked codes, their windows, use states and
 * uses, searchable by lock, type, use state and user. Generating one (pin.generate) or an erase code
 * (pin.revoke) shows its code once; a durable PIN's code, drawn when its lock wakes, is shown once to its
 * generator from its row ("Show code"); a row the server says may be revoked offers "Disable". A use a lock
 * reports shows without a reload (it arrives as an operation record opened by PIN).
 */
export function PinList({ id, title, device }: PinListProps) {
  const { t } = useTranslation('pins');
  const oneDevice = device !== undefined;
  // The lock search looks the ledger up: offered to those who may (the contracts' device choosers).
  const searchLocks = useCan()(api.device.queryPage) && !oneDevice;
  const [generating, setGenerating] = useState<Shown<{ refresh: () => void }> | null>(null);
  const [erasing, setErasing] = useState<Shown<{ refresh: () => void }> | null>(null);
  // The code answered once: here while its dialog is open, dropped when it has closed.
  const [issued, setIssued] = useState<Shown<IssuedCode> | null>(null);
  useLivePages('operation', api.pin.queryPage.path, pinPageAfterOpenings);

  const columns = useMemo(() => pinColumns(t, oneDevice), [t, oneDevice]);

  const search = useMemo<SearchField[]>(() => {
    const choices = (name: 'type' | 'useState', values: readonly string[]): SearchField => ({
      kind: 'select',
      name,
      label: t(`search.${name}`),
      options: values.map((value) => ({ value, label: t(`${name}.${value}`) })),
    });
    const lock: SearchField[] = searchLocks
      ? [
          {
            kind: 'custom',
            name: 'deviceId',
            label: t('search.deviceId'),
            input: ({ value, onChange, testId }) => (
              <DeviceSelect
                value={typeof value === 'string' ? value : null}
                onChange={onChange}
                placeholder={t('search.chooseDevice')}
                testId={testId}
              />
            ),
          },
        ]
      : [];
    return [
      ...lock,
      choices('type', PIN_TYPES),
      choices('useState', PIN_USE_STATES),
      {
        kind: 'text',
        name: 'keyword',
        label: t('search.keyword'),
        placeholder: t('search.keywordHint'),
        maxLength: 64,
      },
    ];
  }, [t, searchLocks]);

  const rowActions: RowAction<PinRow>[] = [
    {
      // A durable PIN's code, drawn when its lock woke: shown once, to whoever generated the PIN.
      key: 'showCode',
      label: t('action.showCode'),
      endpoint: api.pin.showCode,
      when: (row) => row.abilities.showCode,
      run: async (row, ctx) => {
        const shown = await call(api.pin.showCode, { query: { id: row.id } });
        ctx.refresh();
        setIssued(show({ kind: 'pin', pin: shown.pin, code: shown.code, later: true }));
      },
    },
    {
      key: 'disable',
      label: t('action.disable'),
      endpoint: api.pin.revoke,
      outcome: 'disable',
      danger: true,
      when: (row) => row.abilities.revoke,
      confirm: (row) => t('confirm.disable', { user: row.userName ?? '', device: row.deviceName }),
      run: (row, ctx) => call(api.pin.revoke, { query: { id: row.id } }, ctx.callOptions),
    },
  ];

  const toolbar: ToolbarAction<PinRow>[] = [
    {
      key: 'generate',
      label: t('action.generate'),
      endpoint: api.pin.generate,
      primary: true,
      icon: <PlusOutlined />,
      run: (_, ctx) => setGenerating(show({ refresh: ctx.refresh })),
    },
    {
      key: 'erase',
      label: t('action.erase'),
      endpoint: api.pin.eraseCode,
      icon: <ClearOutlined />,
      run: (_, ctx) => setErasing(show({ refresh: ctx.refresh })),
    },
  ];

  return (
    <>
      <CrudPage<PinRow>
        id={id}
        title={title}
        rowKey="id"
        query={api.pin.queryPage}
        fixedQuery={device ? { deviceId: device.id } : undefined}
        columns={columns}
        search={search}
        toolbar={toolbar}
        rowActions={rowActions}
        actionsWidth={150}
      />
      {generating && (
        <PinGenerateDialog
          key={generating.opening}
          device={device}
          open={generating.open}
          onClose={() => setGenerating(hide)}
          onGenerated={({ pin, code }) => {
            generating.value.refresh();
            setIssued(show(code === null ? { kind: 'awaiting', pin } : { kind: 'pin', pin, code }));
          }}
        />
      )}
      {erasing && (
        <EraseCodeAskDialog
          key={erasing.opening}
          device={device}
          open={erasing.open}
          onClose={() => setErasing(hide)}
          onIssued={(erased) => {
            erasing.value.refresh();
            setIssued(show(erased));
          }}
        />
      )}
      {issued && (
        <PinCodeDialog
          key={issued.opening}
          issued={issued.value}
          open={issued.open}
          onClose={() => setIssued(hide)}
          afterClose={() => setIssued(null)}
        />
      )}
    </>
  );
}
