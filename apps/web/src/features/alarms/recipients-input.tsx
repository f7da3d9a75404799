import { useQuery } from '@tanstack/react-query';
import { api, RECIPIENT_KINDS, type RecipientKind, type RuleRecipient } from '@uiot/contracts';
import { Col, Row, Select, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { treeOptions, useTree } from '../../lib/crud/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';

/** Selectors load quietly: an empty list says enough. */
const QUIET = { noOverlay: true, silent: true } as const;

/** Spec §9: tree select dropdown at most 300 px high. */
const DROPDOWN_MAX_HEIGHT = 300;

/**
 * Who a warn rule notifies: staff members, roles and departments, each chosen in its own picker; the value
 * is the rule's `recipients` (`[{ kind, id }]`). `known` names the stored recipients while the lists load.
 */
export function RecipientsInput({
  value = [],
  onChange,
  known = [],
  testId,
}: {
  value?: RuleRecipient[];
  onChange?: (value: RuleRecipient[]) => void;
  known?: readonly { kind: RecipientKind; id: string; name: string }[];
  testId: string;
}) {
  const { t } = useTranslation('alarms');
  const staff = useQuery(endpointQuery(api.staff.getAll, undefined, QUIET));
  const roles = useQuery(endpointQuery(api.role.getAll, undefined, QUIET));
  const departments = useTree(api.department.getTree);
  const departmentOptions = useMemo(
    () => treeOptions(departments.data ?? [], (node) => node.name),
    [departments.data],
  );

  const idsOf = (kind: RecipientKind) => value.filter((r) => r.kind === kind).map((r) => r.id);
  const change = (kind: RecipientKind, ids: string[]) =>
    onChange?.(RECIPIENT_KINDS.flatMap((k) => (k === kind ? ids : idsOf(k)).map((id) => ({ kind: k, id }))));
  // A stored recipient the list does not hold (yet) is shown by its stored name.
  const withKnown = (kind: RecipientKind, options: { value: string; label: string }[]) => [
    ...options,
    ...known
      .filter((r) => r.kind === kind && !options.some((o) => o.value === r.id))
      .map((r) => ({ value: r.id, label: r.name })),
  ];
  const common = {
    mode: 'multiple' as const,
    allowClear: true,
    maxTagCount: 'responsive' as const,
    showSearch: { optionFilterProp: 'label' },
  };

  return (
    <Row gutter={16}>
      <Col xs={24} md={8}>
        <Select
          {...common}
          value={idsOf('staff')}
          onChange={(ids: string[]) => change('staff', ids)}
          loading={staff.isLoading}
          options={withKnown(
            'staff',
            (staff.data ?? []).map((s) => ({ value: s.id, label: s.name })),
          )}
          placeholder={t('recipientKind.staff')}
          data-testid={`${testId}-staff`}
        />
      </Col>
      <Col xs={24} md={8}>
        <Select
          {...common}
          value={idsOf('role')}
          onChange={(ids: string[]) => change('role', ids)}
          loading={roles.isLoading}
          options={withKnown(
            'role',
            (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
          )}
          placeholder={t('recipientKind.role')}
          data-testid={`${testId}-role`}
        />
      </Col>
      <Col xs={24} md={8}>
        <TreeSelect
          multiple
          allowClear
          treeCheckable={false}
          maxTagCount="responsive"
          value={idsOf('department')}
          onChange={(ids: string[]) => change('department', ids)}
          loading={departments.isLoading}
          treeData={departmentOptions}
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'title' }}
          listHeight={DROPDOWN_MAX_HEIGHT}
          placeholder={t('recipientKind.department')}
          data-testid={`${testId}-department`}
        />
      </Col>
    </Row>
  );
}
