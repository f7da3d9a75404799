import { InputNumber, type InputNumberProps } from 'antd';

/**
 * The order field of the CRUD dialogs (a sort index: lower comes first): a whole number from 0, as wide as
 * its column. Place it directly in a Form.Item, which passes value and onChange.
 */
export function SortIndexInput({
  testId,
  ...rest
}: Omit<InputNumberProps<number>, 'min' | 'precision' | 'style'> & { testId: string }) {
  return (
    <InputNumber<number> {...rest} min={0} precision={0} style={{ width: '100%' }} data-testid={testId} />
  );
}
