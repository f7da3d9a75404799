import { useQuery } from '@tanstack/react-query';
import { APP_RESOURCES, api, type GrantSubject, MENU_CATALOGUE } from '@uiot/contracts';
import { Alert, Button, Form, Spin, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { call, endpointQuery } from '../../lib/request/index.ts';
import {
  appResources,
  devTypeResources,
  grantableTree,
  keysBeyond,
  keysToSave,
  type PermissionNode,
  resourceTree,
  treeKeys,
  webResources,
} from './permission-tree.ts';

/** Whose permissions the dialog assigns: a role, a staff member or a department (spec §6). */
export interface GrantTarget {
  subjectType: GrantSubject;
  subjectId: string;
  /** Shown in the title. */
  name: string;
}

interface GrantValues {
  keys: string[];
}

/**
 * The permission assignment dialog (spec §6), one for every kind of subject: a checkable tree of the
 * resources (Web: the menu catalogue's pages with their buttons; App: what the clients may do for their
 * staff; DevTypeOp: every device type), each key checked on its own. It offers only the keys the user may
 * give (the user's own, as the server tells); the subject's other keys stay as they are when saved.
 */
export function GrantDialog({ target, onClose }: { target: GrantTarget | null; onClose: () => void }) {
  // Each opening gets a fresh form; the last subject stays while the dialog closes.
  const [shown, setShown] = useState<{ target: GrantTarget; opening: number } | null>(null);
  if (target && target !== shown?.target) setShown({ target, opening: (shown?.opening ?? 0) + 1 });
  if (!shown) return null;
  return (
    <GrantDialogBody key={shown.opening} target={shown.target} open={target !== null} onClose={onClose} />
  );
}

function GrantDialogBody({
  target,
  open,
  onClose,
}: {
  target: GrantTarget;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('org');
  const { t: tr } = useTranslation();
  const [form] = Form.useForm<GrantValues>();
  const subject = { subjectType: target.subjectType, subjectId: target.subjectId };
  const grants = useQuery({
    ...endpointQuery(api.permission.getGrants, subject, { noOverlay: true }),
    staleTime: 0,
    gcTime: 0,
    enabled: open,
  });
  // The tree is shown once the device types are known (or failed to load: their grants are then kept as
  // they are), so that the keys granted before are its initial value.
  const deviceTypes = useQuery({
    ...endpointQuery(api.deviceType.getTree, undefined, { noOverlay: true, silent: true }),
    staleTime: 0,
    enabled: open,
  });
  const types = deviceTypes.data;
  // Data cached by an earlier opening is not enough: the form takes its initial value once, so it waits for
  // this opening's answers (reopening right after a save would otherwise show, and save back, the old keys).
  const ready =
    grants.isFetchedAfterMount &&
    Boolean(grants.data) &&
    deviceTypes.isFetchedAfterMount &&
    (Boolean(types) || deviceTypes.isError);

  // Only what the user may give is offered (the server tells which keys: the user's own).
  const grantable = grants.data?.grantable;
  const tree = useMemo(
    () =>
      grantableTree(
        resourceTree(
          {
            Web: webResources(MENU_CATALOGUE, {
              menu: (titleKey) => tr(`menu:${titleKey}`),
              key: (key) => tr(`permission:${key}`),
            }),
            App: appResources(APP_RESOURCES, (key) => tr(`permission:${key}`)),
            DevTypeOp: devTypeResources(types ?? []),
          },
          (type) => t(`grant.resourceType.${type}`),
        ),
        grantable ?? { keys: [], all: false },
      ),
    [t, tr, types, grantable],
  );
  const offered = useMemo(() => treeKeys(tree), [tree]);
  const kept = grants.data ? keysBeyond(grants.data.keys, grants.data.grantable) : 0;

  const save = async ({ keys }: GrantValues) => {
    try {
      await call(
        api.permission.saveGrants,
        { body: { ...subject, keys: keysToSave(keys ?? [], grants.data?.keys ?? [], offered) } },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed('authorise', error, { withIssues: true });
      throw error;
    }
    toastSucceeded('authorise');
  };

  const all = grants.data?.all ?? false;
  return (
    <FormDialog<GrantValues>
      open={open}
      title={t(`grant.title.${target.subjectType}`, { name: target.name })}
      form={form}
      onSubmit={save}
      onClose={onClose}
      width={560}
      disabled={!ready || all}
      confirmUnsaved
      testId="grant-dialog"
    >
      {grants.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('grant.loadFailed')}
          action={
            <Button size="small" onClick={() => void grants.refetch()}>
              {t('grant.retry')}
            </Button>
          }
        />
      ) : !grants.data || !ready ? (
        <div className="uiot-org__grant-loading">
          <Spin />
        </div>
      ) : (
        <>
          <p className="uiot-org__grant-hint">{t(`grant.hint.${target.subjectType}`)}</p>
          {deviceTypes.isError && (
            <Alert
              type="warning"
              showIcon
              title={tr('deviceType:grantLoadFailed')}
              style={{ marginBottom: 12 }}
              data-testid="grant-device-types-failed"
            />
          )}
          {all && <Alert type="info" showIcon title={t('grant.holdsAll')} style={{ marginBottom: 12 }} />}
          {!all && kept > 0 && (
            <Alert
              type="info"
              showIcon
              title={t('grant.keptBeyond', { count: kept })}
              style={{ marginBottom: 12 }}
              data-testid="grant-kept-beyond"
            />
          )}
          {/* Mounted once the grants are known, so they are its initial value (not a change). */}
          <Form.Item
            name="keys"
            initialValue={grants.data.keys.filter((key) => offered.includes(key))}
            noStyle
          >
            <PermissionTreeInput tree={tree} offered={offered} disabled={all} />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}

/** The resource tree as a form control: its value is the checked keys; a title click checks too. */
function PermissionTreeInput({
  tree,
  offered,
  disabled,
  value = [],
  onChange,
}: {
  tree: PermissionNode[];
  offered: string[];
  disabled: boolean;
  value?: string[];
  onChange?: (keys: string[]) => void;
}) {
  const { t } = useTranslation('org');
  const toggle = (key: string) =>
    onChange?.(value.includes(key) ? value.filter((k) => k !== key) : [...value, key]);
  const treeData = useMemo(() => {
    const map = (nodes: PermissionNode[]): object[] =>
      nodes.map((node) => ({
        key: node.key,
        title: (
          <span data-testid={`grant-node-${node.key}`} data-checked={value.includes(node.key)}>
            {node.title}
          </span>
        ),
        checkable: node.checkable,
        selectable: node.checkable,
        ...(node.children ? { children: map(node.children) } : {}),
      }));
    return map(tree);
  }, [tree, value]);

  if (tree.length === 0) return <p>{t('grant.nothing')}</p>;
  return (
    <div className="uiot-org__grant">
      <div className="uiot-org__grant-tools">
        <Button type="link" size="small" disabled={disabled} onClick={() => onChange?.([...offered])}>
          {t('grant.checkAll')}
        </Button>
        <Button type="link" size="small" disabled={disabled} onClick={() => onChange?.([])}>
          {t('grant.uncheckAll')}
        </Button>
      </div>
      <div className="uiot-org__grant-tree">
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          blockNode
          disabled={disabled}
          treeData={treeData as never}
          checkedKeys={{ checked: value, halfChecked: [] }}
          selectedKeys={[]}
          onCheck={(checked) => onChange?.((checked as { checked: string[] }).checked.map(String))}
          onSelect={(_, info) => toggle(String(info.node.key))}
          data-testid="grant-tree"
        />
      </div>
    </div>
  );
}
