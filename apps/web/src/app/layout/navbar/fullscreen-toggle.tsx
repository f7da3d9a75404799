import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastWarning } from '../../../lib/feedback/feedback.ts';

/** Full-screen switch; a browser that refuses shows 'cannot enter full screen' (spec §8). */
export function FullscreenToggle() {
  const { t } = useTranslation('shell');
  const [active, setActive] = useState(() => Boolean(document.fullscreenElement));

  useEffect(() => {
    const update = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);

  const toggle = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else if (document.fullscreenEnabled) await document.documentElement.requestFullscreen();
      else throw new Error('fullscreen not enabled');
    } catch {
      toastWarning(t('navbar.fullscreenFailed'));
    }
  };

  const label = active ? t('navbar.exitFullscreen') : t('navbar.fullscreen');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        icon={active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={toggle}
        aria-label={label}
        data-testid="fullscreen-toggle"
      />
    </Tooltip>
  );
}
