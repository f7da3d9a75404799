// @vitest-environment jsdom
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type DevicePropertyRow, translateValidation } from '@uiot/contracts';
import { App, Form, type FormInstance } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { provideBrowserApis } from '../../test-jsdom.ts';
import { RuleItemsEditor } from './rule-items-editor.tsx';

/** The conditions of a rule edited as the dialog does: a property fills its item, its type narrows the rest. */

const property = (code: string, extra: Partial<DevicePropertyRow>): DevicePropertyRow => ({
  id: code,
  deviceTypeId: 't1',
  code,
  name: '',
  origin: 'Master',
  valueType: 'number',
  unit: null,
  builtIn: false,
  nameKey: null,
  values: null,
  valuesKey: null,
  ...extra,
});

const PROPERTIES: DevicePropertyRow[] = [
  property('battery', { nameKey: 'monitor:runtime.column.battery', unit: '%', builtIn: true }),
  property('doorState', {
    nameKey: 'monitor:runtime.column.doorState',
    valueType: 'string',
    builtIn: true,
    values: ['open', 'closed'],
    valuesKey: 'monitor:openState',
  }),
  property('waterLevel', { name: 'Water level', origin: 'Extension', valueType: 'number', unit: 'cm' }),
  property('label', { name: 'Cabinet label', origin: 'Extension', valueType: 'string' }),
];

let form: FormInstance;

function Editor() {
  const [instance] = Form.useForm();
  form = instance;
  return (
    <App>
      <Form form={instance} initialValues={{ items: [{ conditionType: 'Eq' }, { conditionType: 'Eq' }] }}>
        <RuleItemsEditor list="items" properties={PROPERTIES} testId="items" />
      </Form>
    </App>
  );
}

/** Opens the select `testId` and picks the option whose text is `label`. */
async function choose(testId: string, label: string) {
  // The input follows its row's property: wait for it to be a select.
  const select = await waitFor(() => {
    const found = screen.getByTestId(testId).closest('.ant-select');
    if (!found) throw new Error(`${testId} is no select`);
    return found as HTMLElement;
  });
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const option = await waitFor(() => {
    // The dropdown opened last is the last in the document.
    const found = [...document.querySelectorAll('.ant-select-item-option')].findLast(
      (node) => node.textContent === label,
    );
    if (!found) throw new Error(`no option ${label}`);
    return found as HTMLElement;
  });
  fireEvent.click(option);
}

const optionTexts = () =>
  [
    ...document.querySelectorAll(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
    ),
  ].map((node) => node.textContent);

beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
  provideBrowserApis();
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['alarms', 'monitor']);
});

afterEach(() => cleanup());

describe('RuleItemsEditor', { timeout: 30_000 }, () => {
  it('fills the item from the chosen property of the catalogue', async () => {
    render(<Editor />);
    await choose('items-1-property', 'Water level (Attached device)');
    await waitFor(() =>
      expect(form.getFieldValue(['items', 1])).toEqual({
        propCode: 'waterLevel',
        propName: 'Water level',
        propOrigin: 'Extension',
        valType: 'number',
        conditionType: 'Eq',
        propVal: undefined,
      }),
    );
    // A known field nobody renamed reads as its translated name.
    await choose('items-0-property', 'Battery (Device)');
    await waitFor(() => expect(form.getFieldValue(['items', 0, 'propName'])).toBe('Battery'));
    expect(form.getFieldValue(['items', 1, 'propCode'])).toBe('waterLevel');
  });

  it('offers only "equals" for a text property, and its values to choose from, by their names', async () => {
    render(<Editor />);
    await choose('items-0-property', 'Cabinet label (Attached device)');
    const condition = screen.getByTestId('items-0-condition');
    fireEvent.mouseDown(condition.closest('.ant-select')?.querySelector('input') ?? condition);
    await waitFor(() => expect(optionTexts()).toEqual(['=']));

    await choose('items-1-property', 'Door state (Device)');
    await choose('items-1-propVal', 'Closed');
    await waitFor(() => expect(form.getFieldValue(['items', 1, 'propVal'])).toBe('closed'));
  });

  it('shows the translated error of a value that is no number on its own row', async () => {
    render(<Editor />);
    await choose('items-1-property', 'Water level (Attached device)');
    // The value input shows the property's unit once the property is chosen.
    await waitFor(() => expect(within(screen.getByTestId('items-1')).getByText('cm')).toBeTruthy());
    const value = screen.getByTestId('items-1-propVal');
    fireEvent.change(value, { target: { value: 'high' } });
    const message = translateValidation('v.propValNumber', 'en');
    const row = screen.getByTestId('items-1');
    await waitFor(() => expect(within(row).getByText(message)).toBeTruthy());
    expect(within(screen.getByTestId('items-0')).queryByText(message)).toBeNull();

    // The server's issue of the same path lands on the same input.
    await act(async () => {
      fireEvent.change(value, { target: { value: '12' } });
    });
    await waitFor(() => expect(within(row).queryByText(message)).toBeNull());
    act(() => form.setFields([{ name: ['items', 0, 'propVal'], errors: ['from the server'] }]));
    await waitFor(() =>
      expect(within(screen.getByTestId('items-0')).getByText('from the server')).toBeTruthy(),
    );
  });
});
