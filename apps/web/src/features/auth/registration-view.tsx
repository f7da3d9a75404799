import { AntdTheme } from '../../lib/ui/antd-theme.tsx';
import { RegistrationForm } from './registration-form.tsx';

/** The registration form in the console's antd theme, inside the light login page. */
export function RegistrationView(props: Parameters<typeof RegistrationForm>[0]) {
  return (
    <AntdTheme>
      <RegistrationForm {...props} />
    </AntdTheme>
  );
}
