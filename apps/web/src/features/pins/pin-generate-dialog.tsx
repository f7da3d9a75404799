import {
  api,
  PIN_ALGORITHMS,
  PIN_MAX_WEEKS,
  PIN_TYPES,
  PIN_VALID_HOURS,
  type PinForm,
  type PinRow,
  type PinType,
  pinForm,
  WEEKDAYS,
  WORKING_HOURS,
} from '@uiot/contracts';
import { Alert, Checkbox, Col, Form, type FormInstance, Radio, Row } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SchemaField, SchemaForm } from '../../lib/crud/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { errorReason, toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { ConsoleDatePicker } from '../../lib/form/console-date-picker.ts';
import { pickedTime, pickerValue } from '../../lib/form/date-time-value.ts';
import { issueNamePath } from '../../lib/form/field-errors.ts';
import { translateIssue } from '../../lib/form/schema-rules.ts';
import { DATE_TIME_FORMAT } from '../../lib/i18n/date-format.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { call, isRequestError } from '../../lib/request/index.ts';
import { DeviceSelect } from '../devices/device-select.tsx';
import { StaffSelect } from '../org/staff-select.tsx';
import { isHourly, newPinValues, pinBody, windowEnd } from './pin-window.ts';

const TEST_ID = 'pin';
/** Only a registered lock has a PIN secret (docs/offline-pins.md). */
const REGISTERED = { regist: 'true' } as const;
/** The generation is not cancelled by other calls; its failure is shown here, not by the request layer. */
const GENERATE_OPTIONS = { silent: true, canCancel: false } as const;

/** A lock the dialog is opened for (the monitor's tab): chosen already, not to be changed. */
export interface PinDevice {
  id: string;
  name: string;
}

/**
 * Why the server refused the PIN without naming a field: the "who may open" decision (a task or an
 * authorisation must cover the whole window, codes 1310–1318) or the lock's PIN slots and secret. Its
 * message is the server's, translated; null for failures the toast says enough about.
 */
function refusalOf(error: unknown): string | null {
  if (!isRequestError(error) || error.kind !== 'business' || error.issues.length > 0) return null;
  if (error.isSessionExpired || error.isPasswordChangeRequired) return null;
  return errorReason(error);
}

/** One end of the window, kept in the form as ISO text, chosen with a date-time picker. */
function WindowTimeField({
  name,
  disabled = false,
  extra,
  onPicked,
}: {
  name: 'startTime' | 'endTime';
  disabled?: boolean;
  extra?: string;
  onPicked?: (value: string | null) => void;
}) {
  return (
    <SchemaField
      name={name}
      required
      dependencies={[name === 'startTime' ? 'endTime' : 'startTime']}
      getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
      normalize={pickedTime}
      {...(extra ? { extra } : {})}
    >
      <ConsoleDatePicker
        showTime
        format={DATE_TIME_FORMAT}
        disabled={disabled}
        style={{ width: '100%' }}
        onChange={(value: Dayjs | null) => onPicked?.(pickedTime(value))}
        data-testid={`${TEST_ID}-${name}`}
      />
    </SchemaField>
  );
}

/**
 * The fields of a PIN (spec §3, §5): the lock, its user, type and algorithm with what each means, the window
 * (a once or time-period PIN's end follows from its start), a weekly PIN's weekdays, and the reason.
 */
function PinFields({ form, device }: { form: FormInstance; device: PinDevice | undefined }) {
  const { t } = useTranslation('pins');
  const type = Form.useWatch('type', form) as PinType | undefined;
  const algorithm = (Form.useWatch('algorithm', form) as PinForm['algorithm'] | undefined) ?? 'totp';
  const hourly = isHourly(type);

  /** A once or time-period PIN's end is the end of the window its start opens. */
  const fillEnd = (nextType: PinType | undefined, start: unknown) => {
    const end = windowEnd(nextType, start);
    if (end) form.setFields([{ name: 'endTime', value: end, errors: [] }]);
  };
  const typeHint = (value: PinType) =>
    t(`typeHint.${value}`, {
      hours: isHourly(value) ? PIN_VALID_HOURS[value] : 0,
      from: WORKING_HOURS.from,
      to: WORKING_HOURS.to,
      max: PIN_MAX_WEEKS,
    });

  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <SchemaField name="deviceId">
          <DeviceSelect
            known={device}
            filter={REGISTERED}
            disabled={device !== undefined}
            placeholder={t('generate.chooseDevice')}
            testId={`${TEST_ID}-deviceId`}
          />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="userId" extra={t('generate.userHint')}>
          <StaffSelect placeholder={t('generate.chooseUser')} testId={`${TEST_ID}-userId`} />
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="type" extra={type ? typeHint(type) : undefined}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            onChange={(event) => fillEnd(event.target.value as PinType, form.getFieldValue('startTime'))}
            data-testid={`${TEST_ID}-type`}
          >
            {PIN_TYPES.map((value) => (
              <Radio.Button key={value} value={value} data-testid={`${TEST_ID}-type-${value}`}>
                {t(`type.${value}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="algorithm" extra={t(`algorithmHint.${algorithm}`)}>
          <Radio.Group data-testid={`${TEST_ID}-algorithm`}>
            {PIN_ALGORITHMS.map((value) => (
              <Radio key={value} value={value} data-testid={`${TEST_ID}-algorithm-${value}`}>
                {t(`algorithm.${value}`)}
              </Radio>
            ))}
          </Radio.Group>
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <WindowTimeField name="startTime" onPicked={(start) => fillEnd(type, start)} />
      </Col>
      <Col xs={24} md={12}>
        <WindowTimeField
          name="endTime"
          disabled={hourly}
          {...(hourly ? { extra: t('generate.endFilled') } : {})}
        />
      </Col>
      {type === 'weekly' && (
        <Col span={24}>
          <SchemaField name="weekdays" required dependencies={['type']}>
            <Checkbox.Group data-testid={`${TEST_ID}-weekdays`}>
              {WEEKDAYS.map((day) => (
                <Checkbox key={day} value={day} data-testid={`${TEST_ID}-weekday-${day}`}>
                  {t(`weekday.${day}`)}
                </Checkbox>
              ))}
            </Checkbox.Group>
          </SchemaField>
        </Col>
      )}
      <Col span={24}>
        <SchemaField name="reason" />
      </Col>
    </Row>
  );
}

/**
 * Generating a PIN (spec §5): the shared `pinForm` checks the fields as the server does; the server's field
 * errors show on the fields, and a refusal of the "who may open" decision stays in the dialog with the
 * server's words. The code answered goes to `onGenerated` and nowhere else: no query cache holds it.
 * Test ids: `pinGenerate` (`-submit`, `-cancel`, `-refusal`), inputs `pin-<field>`.
 */
export function PinGenerateDialog({
  device,
  open,
  onClose,
  onGenerated,
}: {
  device?: PinDevice | undefined;
  open: boolean;
  onClose: () => void;
  /** `code` null: a durable PIN, whose code is drawn when its lock wakes. */
  onGenerated: (issued: { pin: PinRow; code: string | null }) => void;
}) {
  const { t } = useTranslation('pins');
  const lang = useLang();
  const [form] = Form.useForm();
  const [initial] = useState(() => newPinValues(Date.now(), device?.id));
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (values: Record<string, unknown>) => {
    setRefusal(null);
    const parsed = pinForm.safeParse({ ...initial, ...values });
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({
          name: issueNamePath(issue.path.join('.')) as never,
          errors: [translateIssue(issue, lang)],
        })),
      );
      throw parsed.error;
    }
    let issued: { pin: PinRow; code: string | null };
    try {
      issued = await call(api.pin.generate, { body: pinBody(parsed.data) }, GENERATE_OPTIONS);
    } catch (error) {
      toastFailed('generate', error);
      setRefusal(refusalOf(error));
      throw error;
    }
    toastSucceeded('generate');
    onGenerated(issued);
  };

  return (
    <FormDialog<Record<string, unknown>>
      open={open}
      title={t('generate.title')}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      initialValues={initial}
      okText={t('generate.submit')}
      width={760}
      confirmUnsaved
      testId="pinGenerate"
    >
      {refusal && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('generate.refused')}
          description={refusal}
          data-testid="pinGenerate-refusal"
        />
      )}
      <SchemaForm schema={pinForm} label={(field) => t(`field.${field}`)} testId={TEST_ID}>
        <PinFields form={form} device={device} />
      </SchemaForm>
    </FormDialog>
  );
}
