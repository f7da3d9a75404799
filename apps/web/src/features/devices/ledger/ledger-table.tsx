import { ImportOutlined, PlusSquareOutlined } from '@ant-design/icons';
import {
  api,
  type DeviceForm,
  type DeviceRow,
  deviceForm,
  FLAGGED_DEVICE_FIELDS,
  flagOn,
  isIotDevice,
} from '@uiot/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeatureFlags } from '../../../lib/auth/index.ts';
import {
  CrudPage,
  crudResource,
  type RowAction,
  type SearchField,
  type ToolbarAction,
} from '../../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../../lib/dialog/shown.ts';
import { call } from '../../../lib/request/index.ts';
import {
  DeviceCredentialDialog,
  type IssuedCredential,
  type IssuedPinSecret,
  PinSecretDialog,
} from '../../iot/index.ts';
import { remoteRowActions } from '../../tasks/index.ts';
import { deviceCategoryOptions, deviceTypeOptions, useDeviceTypeTree } from '../device-type-tree.ts';
import { ImportDialog } from '../transfer/import-dialog.tsx';
import { unitOptions, useUnitTree } from '../unit-tree.ts';
import { BatchAddDialog } from './batch-add-dialog.tsx';
import { DeviceDetails } from './device-details.tsx';
import { deviceToForm, hiddenFields, keepHidden, newDeviceValues } from './device-form.ts';
import { DeviceFormFields } from './device-form-fields.tsx';
import { ledgerColumns } from './ledger-columns.tsx';
import { iotTypeOptions, registOptions } from './ledger-options.ts';
import { ReplacementDialog } from './replacement-dialog.tsx';
import './ledger.css';

/** What a dialog opened from the table needs to refresh it. */
interface Opened<T> {
  subject: T;
  refresh: () => void;
}

type ImportKind = 'device' | 'lockCode';

/**
 * The device ledger table (spec §2 /device/device and /device/new-ledger, §3 Device, §4, §5): search,
 * every column, the device dialog, batch add, import and export, registration (showing the device
 * credential once), reset device secret, reset IMEI, one-click lock replacement, details with their tabs,
 * remote open and close of an IoT lock, and delete. Used by both ledger pages: `unitId` (the unit chosen in
 * `sider`) filters it, sub-units included. The actions on the physical device are offered on the rows the
 * server says the user may operate (`abilities.operate`: the DevTypeOp grant of the device's type); the
 * feature flags (spec §6) take away the fields, columns and actions of what they switch off.
 */
export function LedgerTable({
  id,
  title,
  unitId,
  sider,
}: {
  /** Test ids and remembered column settings. */
  id: string;
  title: string;
  unitId?: string | undefined;
  sider?: ReactNode;
}) {
  const { t } = useTranslation('ledger');
  const flags = useFeatureFlags();
  const iot = flagOn(flags, 'SupportIoT');
  const showResetImei = iot && flagOn(flags, 'ShowResetImei');
  const hidden = useMemo(() => hiddenFields(flags, FLAGGED_DEVICE_FIELDS), [flags]);
  const units = useUnitTree();
  const types = useDeviceTypeTree();
  const [batch, setBatch] = useState<Shown<Opened<null>> | null>(null);
  const [importing, setImporting] = useState<Shown<Opened<ImportKind>> | null>(null);
  const [details, setDetails] = useState<Shown<Opened<DeviceRow>> | null>(null);
  const [replacing, setReplacing] = useState<Shown<Opened<DeviceRow>> | null>(null);
  const [credential, setCredential] = useState<Shown<IssuedCredential> | null>(null);
  const [pinSecret, setPinSecret] = useState<Shown<IssuedPinSecret> | null>(null);

  const columns = useMemo(() => ledgerColumns(t, hidden), [t, hidden]);

  const search = useMemo<SearchField[]>(
    () => [
      { kind: 'text', name: 'keyword', label: t('search.keyword'), placeholder: t('search.keywordHint') },
      ...(sider
        ? []
        : [
            {
              kind: 'treeSelect' as const,
              name: 'unitId',
              label: t('column.unitName'),
              treeData: unitOptions(units.data ?? []),
            },
          ]),
      {
        kind: 'treeSelect',
        name: 'typeId',
        label: t('column.typeName'),
        treeData: deviceTypeOptions(types.data ?? []),
      },
      { kind: 'select', name: 'category', label: t('column.category'), options: deviceCategoryOptions(t) },
      ...(iot
        ? [
            {
              kind: 'select' as const,
              name: 'iotType',
              label: t('column.iotType'),
              options: iotTypeOptions(t),
            },
          ]
        : []),
      { kind: 'select', name: 'regist', label: t('column.regist'), options: registOptions(t) },
    ],
    [t, sider, units.data, types.data, iot],
  );

  const toolbar: ToolbarAction<DeviceRow>[] = [
    {
      key: 'batchAdd',
      label: t('action.batchAdd'),
      endpoint: api.device.batchSave,
      icon: <PlusSquareOutlined />,
      run: (_, ctx) => setBatch(show({ subject: null, refresh: ctx.refresh })),
    },
    ...(['device', 'lockCode'] as const).map(
      (kind): ToolbarAction<DeviceRow> => ({
        key: kind === 'device' ? 'importDevices' : 'importLockCodes',
        label: kind === 'device' ? t('action.importDevices') : t('action.importLockCodes'),
        endpoint: api.device.import,
        icon: <ImportOutlined />,
        run: (_, ctx) => setImporting(show({ subject: kind, refresh: ctx.refresh })),
      }),
    ),
  ];

  // Spec §6: only with `ShowResetImei`, for a device that has an IMEI and is not registered (the contract:
  // a new module is fitted to an unregistered device).
  const resetImei: RowAction<DeviceRow> = {
    key: 'resetImei',
    more: true,
    label: t('action.resetImei'),
    endpoint: api.device.resetImei,
    outcome: 'resetImei',
    danger: true,
    when: (row) => row.abilities.operate && Boolean(row.imei) && !row.regist,
    confirm: (row) => t('confirm.resetImei', { name: row.name, imei: row.imei ?? '' }),
    run: (row, ctx) => call(api.device.resetImei, { query: { id: row.id } }, ctx.callOptions),
  };

  // Only devices that sign in to the device bus have a secret: registered ones with a code (SupportIoT).
  const resetSecret: RowAction<DeviceRow> = {
    key: 'resetSecret',
    more: true,
    label: t('action.resetSecret'),
    endpoint: api.device.resetSecret,
    outcome: 'reset',
    danger: true,
    when: (row) => row.abilities.operate && row.regist && Boolean(row.code),
    confirm: (row) => t('confirm.resetSecret', { name: row.name }),
    run: async (row, ctx) => {
      const issued = await call(api.device.resetSecret, { query: { id: row.id } }, ctx.callOptions);
      setCredential(show({ deviceName: row.name, reason: 'reset', credential: issued }));
    },
  };

  // Every registered lock can take offline PINs; one without a code gets its PIN secret only this way.
  const issuePinSecret: RowAction<DeviceRow> = {
    key: 'issuePinSecret',
    more: true,
    label: t('action.issuePinSecret'),
    endpoint: api.device.resetPinSecret,
    outcome: 'reset',
    danger: true,
    when: (row) => row.abilities.operate && row.regist,
    confirm: (row) => t('confirm.issuePinSecret', { name: row.name }),
    run: async (row, ctx) => {
      const issued = await call(api.device.resetPinSecret, { query: { id: row.id } }, ctx.callOptions);
      setPinSecret(show({ deviceName: row.name, pinSecret: issued.pinSecret }));
    },
  };

  const rowActions: RowAction<DeviceRow>[] = [
    {
      key: 'details',
      label: t('action.details'),
      endpoint: api.device.getById,
      run: (row, ctx) => setDetails(show({ subject: row, refresh: ctx.refresh })),
    },
    {
      key: 'register',
      label: t('action.register'),
      endpoint: api.device.regist,
      outcome: 'register',
      // An IoT lock is registered only while SupportIoT is on (the server refuses it otherwise).
      when: (row) => row.abilities.operate && !row.regist && (iot || !isIotDevice(row)),
      // A device with a code gets its device bus credential, shown this once; LoRaWAN and NB-IoT devices
      // (known by DevEUI / IMEI) get none, and only the success message.
      run: async (row, ctx) => {
        const issued = await call(api.device.regist, { query: { id: row.id } }, ctx.callOptions);
        if (issued) setCredential(show({ deviceName: row.name, reason: 'register', credential: issued }));
      },
    },
    {
      key: 'unregister',
      label: t('action.unregister'),
      endpoint: api.device.cancelRegist,
      outcome: 'unregister',
      danger: true,
      when: (row) => row.abilities.operate && row.regist,
      confirm: (row) => t('confirm.unregister', { name: row.name }),
      run: (row, ctx) => call(api.device.cancelRegist, { query: { id: row.id } }, ctx.callOptions),
    },
    {
      key: 'replaceLock',
      more: true,
      label: t('action.replaceLock'),
      endpoint: api.lockReplacement.start,
      // Spec §4: an unregistered device cannot be replaced; the server refuses it too (1130).
      when: (row) => row.abilities.operate && row.regist,
      run: (row, ctx) => setReplacing(show({ subject: row, refresh: ctx.refresh })),
    },
    // Only a registered IoT lock takes remote commands, from whoever may operate its type (the server's
    // opening decision then needs a task or authorisation in force).
    ...(iot
      ? remoteRowActions<DeviceRow>(
          t,
          (row) =>
            row.abilities.operate && row.regist && row.category === 'IoT'
              ? { id: row.id, name: row.name }
              : null,
          { more: true },
        )
      : []),
    ...(iot ? [resetSecret] : []),
    issuePinSecret,
    ...(showResetImei ? [resetImei] : []),
  ];

  return (
    <>
      <CrudPage<DeviceRow, typeof deviceForm>
        id={id}
        title={title}
        rowKey="id"
        query={api.device.queryPage}
        fixedQuery={unitId ? { unitId } : undefined}
        sider={sider}
        columns={columns}
        search={search}
        exports={{ endpoint: api.device.export, pageFromEndpoint: true }}
        actionsWidth={300}
        resource={crudResource<DeviceRow, DeviceForm>({
          save: api.device.save,
          update: api.device.update,
          del: api.device.del,
          body: (values, row) => keepHidden(values, row, hidden),
        })}
        form={{
          schema: deviceForm,
          label: (field) => t(`column.${field}`),
          testId: 'device',
          title: { create: t('dialog.create'), edit: t('dialog.edit') },
          width: 980,
          defaults: newDeviceValues(unitId),
          toForm: deviceToForm,
          fields: ({ form, rule, row }) => (
            <DeviceFormFields form={form} rule={rule} hidden={hidden} registered={row?.regist === true} />
          ),
        }}
        toolbar={toolbar}
        rowActions={rowActions}
        // Registered devices keep their delete: the server refuses them with 'registered device cannot be
        // deleted' (spec §5), which the user then reads.
        remove={{
          name: (row) => row.name,
        }}
      />
      {batch && (
        <BatchAddDialog
          key={batch.opening}
          open={batch.open}
          unitId={unitId}
          onClose={() => setBatch(hide)}
          onSaved={batch.value.refresh}
        />
      )}
      {importing && (
        <ImportDialog
          key={importing.opening}
          kind={importing.value.subject}
          open={importing.open}
          onClose={() => setImporting(hide)}
          onImported={importing.value.refresh}
        />
      )}
      {details && (
        <DeviceDetails
          key={details.opening}
          device={details.value.subject}
          open={details.open}
          onClose={() => {
            setDetails(hide);
            details.value.refresh();
          }}
        />
      )}
      {replacing && (
        <ReplacementDialog
          key={replacing.opening}
          device={replacing.value.subject}
          open={replacing.open}
          onClose={() => setReplacing(hide)}
          onChanged={replacing.value.refresh}
        />
      )}
      {credential && (
        <DeviceCredentialDialog
          key={credential.opening}
          issued={credential.value}
          open={credential.open}
          onClose={() => setCredential(hide)}
          afterClose={() => setCredential(null)}
        />
      )}
      {pinSecret && (
        <PinSecretDialog
          key={pinSecret.opening}
          issued={pinSecret.value}
          open={pinSecret.open}
          onClose={() => setPinSecret(hide)}
          afterClose={() => setPinSecret(null)}
        />
      )}
    </>
  );
}
