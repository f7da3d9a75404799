import { Input } from 'antd';
import type { TextAreaProps } from 'antd/es/input';

/** Longest description the forms accept (the contracts' `optionalText(255)`). */
const DESCRIPTION_MAX = 255;

/**
 * The multi-line text field of the CRUD dialogs (descriptions, notes): grows from two to four lines and
 * counts characters against its limit. Place it directly in a Form.Item, which passes value and onChange.
 */
export function DescriptionInput({
  testId,
  maxLength = DESCRIPTION_MAX,
  ...rest
}: Omit<TextAreaProps, 'autoSize' | 'showCount'> & { testId: string }) {
  return (
    <Input.TextArea
      {...rest}
      autoSize={{ minRows: 2, maxRows: 4 }}
      maxLength={maxLength}
      showCount
      data-testid={testId}
    />
  );
}
