import { useQuery } from '@tanstack/react-query';
import {
  api,
  meetsPasswordRule,
  type PasswordProblem,
  passwordProblemMessage,
  passwordProblems,
  type StaffRow,
  translateValidation,
} from '@uiot/contracts';
import { Col, Form, type FormInstance, type FormRule, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFeatureFlags } from '../../lib/auth/index.ts';
import type { DialogMode } from '../../lib/crud/index.ts';
import { DescriptionInput, SchemaField } from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { download, endpointQuery } from '../../lib/request/index.ts';
import { DepartmentSelect } from './department-select.tsx';
import { roleOptions, sexOptions, staffTypeOptions } from './org-options.ts';
import { SignatureInput } from './signature-input.tsx';

const PASSWORD_PROBLEMS = Object.keys(passwordProblemMessage) as PasswordProblem[];

/** The fields of the staff dialog (spec §3 Staff, §5). */
export function StaffFormFields({
  mode,
  row,
  form,
}: {
  mode: DialogMode;
  row: StaffRow | null;
  form: FormInstance;
}) {
  const { t } = useTranslation('org');
  const lang = useLang();
  const can = useCan();
  const strong = useFeatureFlags().StrongPassword === 'true';
  const staffType = Form.useWatch('staffType', form) as number | undefined;
  const withRoles = can(api.staff.assignRoleIds);
  const roles = useQuery({
    ...endpointQuery(api.role.getAll, undefined, { noOverlay: true, silent: true }),
    enabled: withRoles,
  });
  // The stored signature is a file, fetched through the request layer (staff.read) and shown from memory.
  const signature = useQuery({
    queryKey: [api.staff.getSignatureById.path, row?.id ?? ''],
    queryFn: async ({ signal }) => {
      const answer = await download(
        api.staff.getSignatureById,
        { query: { id: row?.id ?? '' } },
        { noOverlay: true, silent: true, signal },
      );
      return answer.kind === 'file' ? answer.blob : null;
    },
    enabled: Boolean(row?.hasSignature),
  });

  // Half-width fields before the address: type, name, department, sex and age, telephone, email, fax, card
  // id, and the password (new staff) and roles (holders of staff.assignRole).
  const halfFields = 8 + (mode === 'create' ? 1 : 0) + (withRoles ? 1 : 0);

  // Spec §2: the name is the StaffID of MTR staff and the HKID of contractors.
  const nameLabel = staffType === 0 ? t('staff.nameHkid') : t('staff.nameStaffId');
  const message = (key: string) => translateValidation(key, lang);

  // Each problem of the policy is its own rule, so the dialog lists every one while the password is typed;
  // the schema's own rule runs after them.
  const passwordRules: FormRule[] = [
    { required: true, whitespace: false, message: message('v.password') },
    ...(strong
      ? PASSWORD_PROBLEMS.map(
          (problem): FormRule =>
            (f) => ({
              validator: async (_, value: string | undefined) => {
                if (!value) return;
                if (passwordProblems(value, String(f.getFieldValue('name') ?? '')).includes(problem)) {
                  throw new Error(message(passwordProblemMessage[problem]));
                }
              },
            }),
        )
      : [
          {
            validator: async (_: unknown, value: string | undefined) => {
              if (value && !meetsPasswordRule(value)) throw new Error(message('v.passwordRule'));
            },
          },
        ]),
  ];

  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <SchemaField name="staffType">
          <Radio.Group options={staffTypeOptions(t) as never} data-testid="staff-staffType" />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="name" label={nameLabel} />
      </Col>
      {mode === 'create' && (
        <Col xs={24} md={12}>
          <SchemaField
            name="password"
            rules={passwordRules}
            dependencies={['name']}
            extra={t('staff.passwordHint')}
            required
          >
            <Input.Password maxLength={128} autoComplete="new-password" data-testid="staff-password" />
          </SchemaField>
        </Col>
      )}
      <Col xs={24} md={12}>
        <SchemaField name="deptId" label={t('staff.column.department')}>
          <DepartmentSelect testId="staff-deptId" />
        </SchemaField>
      </Col>
      {withRoles && (
        <Col xs={24} md={12}>
          <SchemaField name="roleIds" label={t('staff.column.roles')}>
            <Select
              mode="multiple"
              allowClear
              loading={roles.isLoading}
              options={roleOptions(roles.data ?? [])}
              showSearch={{ optionFilterProp: 'label' }}
              maxTagCount="responsive"
              data-testid="staff-roleIds"
            />
          </SchemaField>
        </Col>
      )}
      <Col xs={12} md={6}>
        <SchemaField name="sex">
          <Select allowClear options={sexOptions(t) as never} data-testid="staff-sex" />
        </SchemaField>
      </Col>
      <Col xs={12} md={6}>
        <SchemaField name="age">
          <InputNumber min={0} max={150} precision={0} style={{ width: '100%' }} data-testid="staff-age" />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="telNo">
          <Input maxLength={20} autoComplete="off" data-testid="staff-telNo" />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="email" />
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="faxNo" />
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="rfidCode" extra={t('staff.rfidHint')} validateTrigger="onBlur">
          <Input
            maxLength={12}
            autoComplete="off"
            className="uiot-org__code-input"
            // Spec §5: the card id is kept upper-cased.
            onBlur={(event) => form.setFieldValue('rfidCode', event.target.value.trim().toUpperCase())}
            data-testid="staff-rfidCode"
          />
        </SchemaField>
      </Col>
      {/* The address fills the row that the fields above leave half empty, or a row of its own. */}
      <Col span={24} md={halfFields % 2 === 1 ? 12 : 24}>
        <SchemaField name="address">
          {/* One line, though long: an address is not prose. */}
          <Input maxLength={255} autoComplete="off" data-testid="staff-address" />
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="notes">
          <DescriptionInput testId="staff-notes" maxLength={500} />
        </SchemaField>
      </Col>
      <Col span={24}>
        <Form.Item name="signatureFileId" label={t('staff.column.signature')}>
          <SignatureInput stored={row?.hasSignature ? (signature.data ?? null) : null} />
        </Form.Item>
      </Col>
    </Row>
  );
}
