import { Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { adoptToken, LOGIN_PATH, redirectTarget } from '../../lib/auth/index.ts';

/**
 * `/auth-redirect`: another system hands over a session token, preferably in the fragment (`#token=...`) so it
 * never reaches a server log. The console keeps it and loads afresh, which restores the session.
 */
export function AuthRedirectPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const token =
      new URLSearchParams(location.hash.slice(1)).get('token') ??
      new URLSearchParams(location.search).get('token');
    if (!token) {
      navigate(LOGIN_PATH, { replace: true });
      return;
    }
    adoptToken(token);
    window.location.replace(redirectTarget(location.search));
  }, [location, navigate]);

  return (
    <div className="uiot-center-page">
      <Spin size="large" description={t('authRedirect.working')} />
    </div>
  );
}
